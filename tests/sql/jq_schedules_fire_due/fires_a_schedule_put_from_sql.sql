-- A schedule put without next_run_at (from SQL, another language) fires its
-- first slot after the put: the call computes the slots after updated_at.
begin;
select plan(3);

select jq_test.set_now('2026-03-01 07:59:30Z') \gset
select count(*) from jq.jq_schedule_put('fresh', '0 8 * * *', 'UTC', 't') \gset
select is((select next_run_at from jq.jq_schedules('fresh')), null, 'put from SQL: no next_run_at yet');

select jq_test.set_now('2026-03-01 08:00:05Z') \gset
select is(jq.jq_schedules_fire_due(), 1, 'the first slot after the put fires');
select results_eq($$select idempotency_key from jq.jobs$$, $$values ('schedule:fresh:2026-03-01T08:00:00Z'::text)$$,
                  'the 08:00 slot');

select * from finish();
rollback;
