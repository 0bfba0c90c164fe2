#!/usr/bin/env bash
# The periodic call of a deployment without pyjq: jq_tick in a loop, sleeping
# what each call answers (docs/worker.md). One psql session (a coprocess), so
# a tick costs a round trip, not a process.
#
#   tick_loop.sh STOP_FILE
#
# Connection settings come from the libpq environment. Exits once STOP_FILE
# exists; prints how many calls it made and how many truncated a generation.
set -euo pipefail

stop=$1
coproc PSQL { psql -X -q -At -F ' ' -v ON_ERROR_STOP=1; }

calls=0 truncations=0
until [[ -e $stop ]]; do
    printf '%s\n' "select extract(epoch from call_again_after), account ->> 'rotation' from jq.jq_tick();" >&"${PSQL[1]}"
    read -r again rotation <&"${PSQL[0]}"
    calls=$((calls + 1))
    [[ $rotation == truncated ]] && truncations=$((truncations + 1))
    sleep "$again"
done
echo "$calls $truncations"
