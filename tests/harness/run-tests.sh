#!/usr/bin/env bash
# What `make test` runs: start a throwaway PostgreSQL (and a PgBouncer in front
# of it, tests/harness/bouncer.py), run the pgTAP suite
# (pg_prove over tests/sql/) and pytest (tests/) against it, stop it.
#
#   tests/harness/run-tests.sh [all|sql|py]
#
# The server is stopped and its directory removed however the run ends
# (pass, failure, Ctrl-C). pytest runs even when pgTAP failed; the exit status
# is non-zero when either failed.
#
# Environment: VENV (default .venv), PYTEST_ARGS (extra pytest arguments,
# shell-quoted, e.g. "-k 'claim and not slow'"), PGPROVE_ARGS (extra pg_prove
# arguments).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/harness/common.sh
. "$here/common.sh"
cd "$repo"

mode=${1:-all}
case "$mode" in all | sql | py) ;; *) jq_die "usage: $0 [all|sql|py]" ;; esac
venv=${VENV:-.venv}

# Settings from the caller's shell must not redirect the tests elsewhere.
unset PGDATABASE PGSERVICE PGHOSTADDR

# The server is pyjq.dev.localpg's ThrowawayPostgres, through testserver.py.
# Create its directory here (not in testserver.py) so the trap below owns it
# from the first moment: nothing leaks even if startup fails halfway.
pgroot=$(mktemp -d "$(jq_tmpbase)/jq-pg.XXXXXX")
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    # Keep the server log for a post-mortem (.tmp/ is git-ignored).
    if [ -f "$pgroot/server.log" ]; then
        mkdir -p .tmp && cp "$pgroot/server.log" .tmp/pg-server.log 2>/dev/null || true
    fi
    if [ -f "$pgroot/pgbouncer/pgbouncer.log" ]; then
        mkdir -p .tmp && cp "$pgroot/pgbouncer/pgbouncer.log" .tmp/pgbouncer.log 2>/dev/null || true
    fi
    if [ -f "$pgroot/.jq-throwaway-server" ]; then
        "$venv/bin/python" "$here/testserver.py" stop "$pgroot" || true
    else
        rmdir "$pgroot" 2>/dev/null || true   # startup failed before using it
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$venv/bin/python" "$here/testserver.py" start "$pgroot"
# shellcheck source=/dev/null
. "$pgroot/env.sh"
jq_log "PostgreSQL ready: PGHOST=$PGHOST PGPORT=$PGPORT PGUSER=$PGUSER (log: $JQ_TEST_PGLOG)"
jq_log "PgBouncer (transaction pooling) ready: port $JQ_TEST_PGBOUNCER_PORT (log: $JQ_TEST_PGBOUNCER_LOG)"

sql_rc=0
py_rc=0

if [ "$mode" != py ]; then
    jq_log "pgTAP: installing jq into database jq_pgtap"
    psql=("$JQ_TEST_PGBIN/psql" -X -q -v ON_ERROR_STOP=1)
    # The pgTAP files share this one database; each runs in a transaction it
    # rolls back. tests/pgtap_helpers.sql is their test-only helper schema.
    if "${psql[@]}" -d postgres -c 'create database jq_pgtap' &&
        "${psql[@]}" -d jq_pgtap -c 'create extension pgtap' &&
        "${psql[@]}" -d jq_pgtap -f sql/install.sql &&
        { [ ! -f tests/pgtap_helpers.sql ] || "${psql[@]}" -d jq_pgtap -f tests/pgtap_helpers.sql; }; then
        mapfile -t pgtap_files < <(find tests/sql -type f -name '*.sql' 2>/dev/null)
        if [ "${#pgtap_files[@]}" -eq 0 ]; then
            jq_log "pgTAP: no tests under tests/sql/"
        else
            jq_log "pgTAP: pg_prove over tests/sql/ (${#pgtap_files[@]} files)"
            eval "pgprove_args=(${PGPROVE_ARGS:-})"
            # --psql-bin: the server's own psql, not whatever psql is on PATH.
            pg_prove --psql-bin "$JQ_TEST_PGBIN/psql" -d jq_pgtap -U "$PGUSER" -h "$PGHOST" -p "$PGPORT" \
                --recurse --ext .sql --failures "${pgprove_args[@]}" tests/sql/ || sql_rc=$?
        fi
    else
        sql_rc=$?
        jq_log "pgTAP: could not set up database jq_pgtap (see the psql error above)"
    fi
fi

if [ "$mode" != sql ]; then
    jq_log "pytest"
    eval "pytest_args=(${PYTEST_ARGS:-})"
    "$venv/bin/pytest" "${pytest_args[@]}" || py_rc=$?
fi

if [ "$sql_rc" -ne 0 ] || [ "$py_rc" -ne 0 ]; then
    jq_log "FAILED: pgTAP exit $sql_rc, pytest exit $py_rc"
    exit 1
fi
jq_log "all tests passed"
