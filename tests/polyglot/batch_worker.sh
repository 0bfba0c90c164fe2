#!/usr/bin/env bash
# A jq worker in bash that keeps one psql session open (a coprocess): it
# claims up to 100 jobs a call with jq_claim and completes them with one
# jq_complete, through the SQL functions alone, as a worker in any language
# would. It makes no periodic call: tick_loop.sh does that beside it.
#
#   batch_worker.sh QUEUE WORKER_NAME STOP_FILE
#
# Connection settings come from the libpq environment (PGHOST, PGPORT,
# PGUSER, PGDATABASE). Handles every job type by doing nothing; sleeps 50 ms
# when nothing is ready; exits once STOP_FILE exists and nothing is ready.
# Prints how many jobs it completed.
set -euo pipefail

queue=$1 worker=$2 stop=$3

coproc PSQL { psql -X -q -At -v ON_ERROR_STOP=1 -v queue="$queue" -v worker="$worker"; }

# Sends one statement and prints its rows, up to the marker psql echoes after it.
query() {
    printf '%s\n\\echo __end__\n' "$1" >&"${PSQL[1]}"
    local line
    while IFS= read -r line <&"${PSQL[0]}"; do
        [[ $line == __end__ ]] && return 0
        printf '%s\n' "$line"
    done
    echo "psql ended" >&2
    return 1
}

completed=0
while :; do
    ids=$(query "select string_agg(c.id::text, ',') from jq.jq_claim(p_queue => :'queue', p_worker => :'worker',
                                                                    p_limit => 100, p_lease => interval '1 minute') c;")
    if [[ -z $ids ]]; then
        [[ -e $stop ]] && break
        sleep 0.05
        continue
    fi
    # The ids come from jq_claim: uuids, safe to write into the statement.
    n=$(query "select count(*) from jq.jq_complete(string_to_array('$ids', ',')::uuid[], :'worker');")
    completed=$((completed + n))
done
echo "$completed"
