-- missed = latest (the default): after a day without any caller, only the
-- most recent slot that passed fires, and next_run_at is the next slot.
begin;
select plan(3);

select jq_test.set_now('2026-03-01 07:30Z') \gset
select count(*) from jq.jq_schedule_put('hourly', '0 * * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-02 08:30Z') \gset

select is(jq.jq_schedules_fire_due(), 1, 'one job');
select results_eq($$select idempotency_key from jq.jobs$$, $$values ('schedule:hourly:2026-03-02T08:00:00Z'::text)$$,
                  'the latest slot, 08:00 on the 2nd');
select is((select next_run_at from jq.jq_schedules('hourly')), '2026-03-02 09:00Z'::timestamptz,
          'next_run_at is the next slot');

select * from finish();
rollback;
