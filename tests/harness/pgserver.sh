#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests.
#
#   pgserver.sh start [DIR]   initdb + start a server in DIR (default: a new
#                             mktemp dir); prints DIR. DIR/env.sh holds the
#                             exports a test run needs (source it).
#   pgserver.sh stop DIR      stop that server and delete DIR.
#
# Layout of DIR:  data/ (PGDATA)  sock/ (unix socket)  server.log  env.sh
#
# The server listens on 127.0.0.1 on a free port, trusts every local
# connection, superuser `postgres`, and trades durability for speed (fsync off):
# it only ever holds test data.
#
# PostgreSQL refuses to run as root. When this runs as root (CI), DIR is
# given to the `postgres` OS user (created if missing) and initdb/pg_ctl run
# as that user via runuser (pg_ctl through tests/harness/pgctl). As an ordinary user,
# everything runs as that user.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/harness/common.sh
. "$here/common.sh"

MARKER=.jq-test-server   # `stop` deletes only directories carrying this file

free_port() {
    "${PYTHON:-python3}" - <<'PY'
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
PY
}

ensure_postgres_user() {
    getent passwd postgres >/dev/null && return 0
    jq_log "creating system user postgres"
    if getent group postgres >/dev/null; then
        useradd --system --gid postgres --no-create-home postgres
    else
        useradd --system --user-group --no-create-home postgres
    fi
}

cmd_start() {
    local pgbin root
    pgbin=$(jq_find_pgbin) || jq_die "no PostgreSQL server installed (run: make deps)"
    if [ -n "${1:-}" ]; then
        root=$1
        mkdir -p "$root"
    else
        # Under /tmp rather than the repo: when root, the postgres user must be able
        # to reach the directory, and a repo under /root is not reachable; also
        # unix socket paths must stay short (about 100 bytes).
        root=$(mktemp -d "$(jq_tmpbase)/jq-pg.XXXXXX")
    fi
    root=$(cd "$root" && pwd)
    [ -z "$(ls -A "$root")" ] || jq_die "$root is not empty"
    touch "$root/$MARKER"
    mkdir "$root/data" "$root/sock"
    chmod 700 "$root/data"

    local run_as=()
    if jq_is_root; then
        ensure_postgres_user
        chown -R postgres: "$root"
        # runuser rather than su: no password, no login shell, no PAM prompt,
        # and arguments are passed as-is (no shell quoting).
        run_as=(runuser -u postgres --)
    fi

    jq_log "initdb in $root/data ($pgbin)"
    # cd: initdb/pg_ctl run as postgres must not inherit a cwd it cannot enter.
    if ! (cd "$root" && "${run_as[@]}" "$pgbin/initdb" -D "$root/data" -U postgres \
            --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$root/initdb.log" 2>&1); then
        cat "$root/initdb.log" >&2
        jq_die "initdb failed"
    fi

    # Settings live in a file included from postgresql.conf (not pg_ctl -o) so
    # that a plain `pg_ctl restart` in a test brings the server back as it was.
    echo "include 'jq_harness.conf'" >>"$root/data/postgresql.conf"
    echo "$pgbin" >"$root/pgbin"
    local env=(JQ_TEST_PGDATA="$root/data" JQ_TEST_PGBIN="$pgbin")
    local port attempt
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        cat >"$root/data/jq_harness.conf" <<CONF
# written by tests/harness/pgserver.sh
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$root/sock'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
        if jq_is_root; then chown postgres: "$root/data/jq_harness.conf"; fi
        jq_log "starting PostgreSQL on 127.0.0.1:$port"
        if env "${env[@]}" "$here/pgctl" start -w -t 60 >/dev/null; then
            break
        fi
        # Lost the race for the port to another process? Pick another one.
        if [ "$attempt" -lt 5 ] && grep -q "could not bind\|Address already in use" "$root/server.log" 2>/dev/null; then
            jq_log "port $port was taken; retrying"
            continue
        fi
        tail -n 30 "$root/server.log" >&2 || true
        jq_die "PostgreSQL did not start"
    done

    # JQ_TEST_PGCTL is a command prefix: `$JQ_TEST_PGCTL restart -m fast`.
    {
        printf 'export PGHOST=127.0.0.1\n'
        printf 'export PGPORT=%q\n' "$port"
        printf 'export PGUSER=postgres\n'
        printf 'export JQ_TEST_PGDATA=%q\n' "$root/data"
        printf 'export JQ_TEST_PGBIN=%q\n' "$pgbin"
        printf 'export JQ_TEST_PGLOG=%q\n' "$root/server.log"
        printf 'export JQ_TEST_PGCTL=%q\n' "$(printf '%q' "$here/pgctl")"
    } >"$root/env.sh"
    echo "$root"
}

cmd_stop() {
    local root=${1:?usage: pgserver.sh stop DIR}
    [ -d "$root" ] || return 0
    [ -f "$root/$MARKER" ] || jq_die "$root was not made by pgserver.sh; not touching it"
    local pgbin
    pgbin=$(cat "$root/pgbin" 2>/dev/null) || pgbin=
    if [ -f "$root/data/postmaster.pid" ] && [ -n "$pgbin" ]; then
        local env=(JQ_TEST_PGDATA="$root/data" JQ_TEST_PGBIN="$pgbin")
        jq_log "stopping PostgreSQL ($root)"
        env "${env[@]}" "$here/pgctl" stop -m fast -w -t 60 >/dev/null 2>&1 ||
            env "${env[@]}" "$here/pgctl" stop -m immediate -w -t 30 >/dev/null 2>&1 || true
    fi
    if [ -f "$root/data/postmaster.pid" ]; then
        # Still there: kill the postmaster we started (first line of postmaster.pid).
        local pid
        pid=$(head -n 1 "$root/data/postmaster.pid" 2>/dev/null || true)
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            jq_log "killing postmaster $pid"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 1
        fi
    fi
    rm -rf "$root"
}

case "${1:-}" in
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    *) echo "usage: $0 start [DIR] | stop DIR" >&2; exit 2 ;;
esac
