-- jq's DST rule: a time in a gap at the gap's end, several slots in one gap
-- once, a repeated time at its first occurrence only.
begin;
select plan(3);

select results_eq($$select slot from jq.jq_cron_slots('30 2 * * *', 'America/New_York', '2026-03-07 00:00Z', 3)$$,
                  $$values ('2026-03-07 07:30Z'::timestamptz), ('2026-03-08 07:00Z'), ('2026-03-09 06:30Z')$$,
                  '02:30 on spring-forward day fires at 03:00 EDT');
select results_eq($$select slot from jq.jq_cron_slots('0,30 2-3 * * *', 'America/New_York', '2026-03-08 06:00Z', 3)$$,
                  $$values ('2026-03-08 07:00Z'::timestamptz), ('2026-03-08 07:30Z'), ('2026-03-09 06:00Z')$$,
                  '02:00, 02:30 and 03:00 that day fire once, together, at 03:00 EDT');
select results_eq($$select slot from jq.jq_cron_slots('30 1 * * *', 'America/New_York', '2026-10-31 00:00Z', 3)$$,
                  $$values ('2026-10-31 05:30Z'::timestamptz), ('2026-11-01 05:30Z'), ('2026-11-02 06:30Z')$$,
                  '01:30 on fall-back day fires once, at 01:30 EDT');

select * from finish();
rollback;
