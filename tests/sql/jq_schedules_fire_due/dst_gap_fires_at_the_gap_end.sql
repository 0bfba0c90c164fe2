-- Spring forward: 02:30 does not exist in New York on 2026-03-08 (02:00 EST
-- -> 03:00 EDT); a daily 02:30 fires once, at 03:00 EDT (07:00 UTC), and the
-- next day at 02:30 EDT again.
begin;
select plan(4);

select jq_test.set_now('2026-03-07 12:00Z') \gset
select count(*) from jq.jq_schedule_put('ny', '30 2 * * *', 'America/New_York', 't') \gset
select jq_test.set_now('2026-03-07 12:00:01Z') \gset
select is(jq.jq_schedules_fire_due(), 0, 'nothing due yet');
select is((select next_run_at from jq.jq_schedules('ny')), '2026-03-08 07:00Z'::timestamptz,
          'next_run_at is the end of the gap, 03:00 EDT');

select jq_test.set_now('2026-03-08 07:00:01Z') \gset
select is(jq.jq_schedules_fire_due(), 1, 'it fires once');
select results_eq($$select idempotency_key from jq.jobs union all select next_run_at::text from jq.jq_schedules('ny')$$,
                  $$values ('schedule:ny:2026-03-08T07:00:00Z'::text), ('2026-03-09 06:30:00+00')$$,
                  'at 07:00 UTC; next at 02:30 EDT the next day');

select * from finish();
rollback;
