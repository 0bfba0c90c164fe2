#!/usr/bin/env bash
# Set up the machine for `make test`, `make run` and `make bench`, but only what
# is missing (the root-only steps pyjq.dev.localpg never does itself):
#   - a PostgreSQL server (postgresql, postgresql-contrib)
#   - pgTAP for that server's major version (postgresql-<N>-pgtap) and
#     pg_prove (libtap-parser-sourcehandler-pgtap-perl)
#   - python3 with the venv module (python3-venv)
#   - PgBouncer (pgbouncer), which the tests start in front of the test server
#     in transaction pooling mode
#   - Chromium (chromium), which the console's browser tests (tests/ui/) drive
#     headless through Playwright; never a browser downloaded by Playwright.
#     An ordinary user without it gets those tests skipped, with the reason
#   - as root: the `postgres` OS user, which runs the local servers (PostgreSQL
#     refuses to run as root); Debian's postgresql package normally creates it
# When everything is present it does nothing, so an ordinary user without
# sudo can run it. Otherwise it uses apt-get directly as root, or via sudo.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/harness/common.sh
. "$here/common.sh"

PYTHON=${PYTHON:-python3}

# apt-get install "$@"; if that fails (typically: stale or empty package lists on
# a fresh machine), run apt-get update and try once more.
apt_install() {
    local sudo=()
    if ! jq_is_root; then
        if jq_have sudo; then
            sudo=(sudo)
        else
            jq_die "missing system packages: $*
  Install them as root:  apt-get install -y $*"
        fi
    fi
    jq_log "apt-get install $*"
    local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q)
    if ! "${apt[@]}" install --no-install-recommends "$@"; then
        jq_log "apt-get install failed; running apt-get update and retrying once"
        "${apt[@]}" update
        "${apt[@]}" install --no-install-recommends "$@"
    fi
}

# 1. Python with venv + ensurepip (Debian splits ensurepip into python3-venv).
if ! jq_have "$PYTHON"; then
    apt_install python3 python3-venv
elif ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    apt_install python3-venv
fi

# 2. A PostgreSQL server.
if ! pgbin=$(jq_find_pgbin); then
    apt_install postgresql postgresql-contrib
    pgbin=$(jq_find_pgbin) || jq_die "PostgreSQL was installed but no server found in /usr/lib/postgresql/*/bin"
fi
major=$(jq_pg_major "$pgbin")

# 3. pgTAP for that server, and pg_prove.
control="$(jq_pg_sharedir "$pgbin")/extension/pgtap.control"
if ! jq_have pg_prove || [ ! -f "$control" ]; then
    apt_install "postgresql-$major-pgtap" libtap-parser-sourcehandler-pgtap-perl
    [ -f "$control" ] || jq_die "pgTAP installed but $control is still missing"
    jq_have pg_prove || jq_die "pgTAP installed but pg_prove is still not on PATH"
fi

# 4. PgBouncer: the tests run jq through it in transaction pooling mode.
if ! jq_find_pgbouncer >/dev/null; then
    apt_install pgbouncer
    jq_find_pgbouncer >/dev/null || jq_die "pgbouncer was installed but /usr/sbin/pgbouncer is still missing"
fi

# 5. Chromium for the console's browser tests. Optional for an ordinary user
# without sudo: the tests skip and say why.
if [ ! -x /usr/bin/chromium ]; then
    if jq_is_root || jq_have sudo; then
        apt_install chromium
    else
        jq_log "no /usr/bin/chromium and no root: the console's browser tests (tests/ui/) will be skipped"
    fi
fi

jq_log "using PostgreSQL $major from $pgbin, pgTAP from $control, $(jq_find_pgbouncer)"

# 6. As root, the servers (and PgBouncer) run as the postgres OS user.
if jq_is_root && ! getent passwd postgres >/dev/null; then
    jq_log "creating system user postgres"
    if getent group postgres >/dev/null; then
        useradd --system --gid postgres --no-create-home postgres
    else
        useradd --system --user-group --no-create-home postgres
    fi
fi
