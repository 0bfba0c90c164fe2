# Shared helpers for the test-harness scripts. Sourced, not run.
# shellcheck shell=bash

jq_is_root() { [ "$(id -u)" -eq 0 ]; }

jq_die() { echo "jq harness: $*" >&2; exit 1; }

jq_log() { echo "==> $*" >&2; }

# True if $1 is an executable command on PATH. (`command -v` alone also
# reports a non-executable file of that name when nothing better exists.)
jq_have() {
    local p
    p=$(command -v "$1" 2>/dev/null) && [ -x "$p" ]
}

# Where to put the throwaway server's directory. As root it must be somewhere
# the postgres user can reach, so ignore a possibly private $TMPDIR.
jq_tmpbase() {
    if jq_is_root; then echo /tmp; else echo "${TMPDIR:-/tmp}"; fi
}

# Print the directory holding the PostgreSQL *server* binaries (initdb, pg_ctl,
# postgres, psql, pg_config). Debian keeps them off PATH in
# /usr/lib/postgresql/<N>/bin; take the newest N, unless JQ_TEST_PGBIN names a
# directory explicitly. PATH is deliberately not searched: on some machines
# /usr/local/bin/pg_ctl etc. are local wrappers, and /usr/bin/pg_config (libpq-dev)
# describes the client library, not necessarily an installed server.
# Prints nothing and returns 1 when no server is installed.
jq_find_pgbin() {
    if [ -n "${JQ_TEST_PGBIN:-}" ]; then
        if [ -x "$JQ_TEST_PGBIN/pg_ctl" ] && [ -x "$JQ_TEST_PGBIN/initdb" ]; then
            echo "$JQ_TEST_PGBIN"
            return 0
        fi
        echo "jq harness: JQ_TEST_PGBIN=$JQ_TEST_PGBIN has no pg_ctl/initdb; ignoring it" >&2
    fi
    local postgres
    postgres=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$postgres" ] || return 1
    local bin
    bin=$(dirname "$postgres")
    [ -x "$bin/pg_ctl" ] && [ -x "$bin/initdb" ] || return 1
    echo "$bin"
}

# Major version of the server in $1 (a bin dir), e.g. 15.
# `postgres -V` prints "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)".
jq_pg_major() {
    "$1/postgres" -V | awk '{ split($3, v, "."); print v[1] }'
}

# The server's share dir (holds extension/*.control), for the bin dir in $1.
jq_pg_sharedir() {
    if [ -x "$1/pg_config" ]; then
        "$1/pg_config" --sharedir
    else
        echo "/usr/share/postgresql/$(jq_pg_major "$1")"
    fi
}

# Print the path of the pgbouncer binary (Debian: /usr/sbin, off an ordinary
# user's PATH), or return 1 when it is not installed.
jq_find_pgbouncer() {
    local p
    for p in "${JQ_TEST_PGBOUNCER_BIN:-}" /usr/sbin/pgbouncer "$(command -v pgbouncer 2>/dev/null || true)"; do
        if [ -n "$p" ] && [ -x "$p" ]; then
            echo "$p"
            return 0
        fi
    done
    return 1
}
