# jq — PostgreSQL job queue.
# `make help` lists the targets. CI runs `make test` (see .ci/run).

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
# Extra arguments, e.g. make test PYTEST_ARGS="-k claim -x"  or  PGPROVE_ARGS="--verbose"
# The pytest groups (tests/conftest.py): PYTEST_ARGS="-m unit", "-m db", "-m processes"
PYTEST_ARGS ?=
PGPROVE_ARGS ?=
# Extra arguments of bench/run.py, e.g. make bench BENCH_ARGS="--full"  or  BENCH_ARGS="--only c,e"
BENCH_ARGS ?=
# Extra arguments of `pyjq dev`, e.g. make run RUN_ARGS="--serve"  or  RUN_ARGS="--short"
RUN_ARGS ?=
export PYTHON VENV PYTEST_ARGS PGPROVE_ARGS

.PHONY: help deps venv lint test test-sql test-py soak bench bench-quick run db db-stop clean

help: ## List the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-zA-Z0-9_.-]+:.*## / { printf "  \033[36m%-10s\033[0m %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## Install PostgreSQL, pgTAP, pg_prove, python3-venv if missing; as root, create the postgres OS user
	@bash tests/harness/ensure-deps.sh

# A file target, so the venv is built once and again only when pyproject.toml
# changes. `deps` is order-only: it must run first (python3-venv), but being
# phony it must not force a rebuild. An existing venv is reused, not recreated
# (recreating it over itself with a different python breaks it): `make clean`
# starts over.
$(VENV)/.installed: pyproject.toml | deps
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -e '.[test]'
	touch $@

venv: $(VENV)/.installed ## Create .venv with pyjq and its test dependencies

lint: venv ## ruff (lint and format check) and mypy, as configured in pyproject.toml
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: deps venv lint ## Run everything CI runs: lint, pgTAP and pytest against a throwaway PostgreSQL
	@bash tests/harness/run-tests.sh all

test-sql: deps venv ## Run only the pgTAP suite (tests/sql/) with pg_prove
	@bash tests/harness/run-tests.sh sql

test-py: deps venv ## Run only pytest (tests/); PYTEST_ARGS="..." passes arguments, e.g. "-m unit"
	@bash tests/harness/run-tests.sh py

soak: deps venv ## The chaos and property tests at full size (20,000 jobs, kills, crashes; about 10 min)
	@JQ_SOAK=1 PYTEST_ARGS="tests/test_chaos.py tests/test_properties.py $(PYTEST_ARGS)" bash tests/harness/run-tests.sh py

# The benchmark suite also needs the `bench` extra (PgQueuer, Procrastinate, py-spy).
$(VENV)/.bench-installed: pyproject.toml $(VENV)/.installed
	$(VENV)/bin/pip install -e '.[test,bench]'
	touch $@

bench: deps $(VENV)/.bench-installed ## Benchmarks vs pgbench, PgQueuer, Procrastinate (about 16 min): table + bench/results/latest.json
	$(VENV)/bin/python bench/run.py $(BENCH_ARGS)

bench-quick: deps $(VENV)/.bench-installed ## The benchmarks at small sizes (a few minutes): a smoke test, not figures
	$(VENV)/bin/python bench/run.py --quick $(BENCH_ARGS)

run: deps venv ## The demo: jq on a local PostgreSQL in .jq-dev/ (or DATABASE_URL), live; RUN_ARGS="--serve" keeps serving
	$(VENV)/bin/pyjq dev $(RUN_ARGS)

db: deps venv ## A development PostgreSQL with jq for your app in .jq-dev/db/, up until `make db-stop`; prints DATABASE_URL
	@$(VENV)/bin/pyjq dev db start

db-stop: deps venv ## Stop the `make db` PostgreSQL (its data stays in .jq-dev/db/)
	@$(VENV)/bin/pyjq dev db stop

clean: ## Remove .venv, .tmp and caches
	rm -rf $(VENV) .tmp .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
