-- A paused schedule never fires; resumed, it starts from the resume time
-- (the slots it missed while paused do not fire, even with missed = all).
begin;
select plan(4);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('p', '0 * * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 01:00Z') \gset
select jq.jq_schedule_pause('p') \gset
select jq_test.set_now('2026-03-01 05:30Z') \gset
select is(jq.jq_schedules_fire_due(), 0, 'paused: nothing fires');
select is((select next_run_at from jq.jq_schedules('p')), '2026-03-01 01:00Z'::timestamptz, 'and nothing moves');

select jq.jq_schedule_resume('p') \gset
select jq_test.set_now('2026-03-01 06:00:01Z') \gset
select is(jq.jq_schedules_fire_due(), 1, 'resumed: only the slot after the resume fires');
select results_eq($$select idempotency_key from jq.jobs$$, $$values ('schedule:p:2026-03-01T06:00:00Z'::text)$$,
                  'the 06:00 slot');

select * from finish();
rollback;
