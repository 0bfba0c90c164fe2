#!/usr/bin/env bash
# A jq worker written with nothing but bash and psql: proof that any language
# that can call SQL functions can share the queue. It claims one job at a
# time, "handles" it, and reports with jq_complete or jq_fail.
#
#   psql_worker.sh QUEUE WORKER_NAME OUTPUT_FILE
#
# Connection settings come from the usual libpq environment (PGHOST, PGPORT,
# PGUSER, PGDATABASE). Handles one job type, `append_line`: payload
# {"line": "..."} is appended to OUTPUT_FILE; payload {"fail": "msg"} fails
# the attempt with that message. Exits when nothing is ready to run.
set -euo pipefail

queue=$1 worker=$2 out=$3

# Fields are split on the unit separator (0x1f): with tabs, bash would merge
# an empty field into its neighbour. Values travel as psql variables (:'name' quotes them), never pasted into SQL.
sql() { psql -X -q -At -v ON_ERROR_STOP=1 -F $'\x1f' -v queue="$queue" -v worker="$worker" "$@"; }

while :; do
    row=$(sql <<'SQL'
select id, payload ->> 'line', payload ->> 'fail'
  from jq.jq_claim(p_queue => :'queue', p_worker => :'worker', p_limit => 1,
                   p_lease => interval '30 seconds', p_types => array['append_line']);
SQL
)
    [[ -z $row ]] && break
    IFS=$'\x1f' read -r id line failure <<<"$row"

    if [[ -n $failure ]]; then
        sql -v id="$id" -v error="$failure" >/dev/null <<'SQL'
select status from jq.jq_fail(:'id', :'worker', :'error');
SQL
    else
        printf '%s\n' "$line" >>"$out"
        done_id=$(sql -v id="$id" <<'SQL'
select * from jq.jq_complete(array[:'id']::uuid[], :'worker');
SQL
)
        [[ $done_id == "$id" ]] || echo "lease lost for $id" >&2
    fi
done
