-- Callers of either kind fire a slot once: jq_schedules_fire_due after a
-- 0.5.0 scheduler's jq_schedules_due + jq_schedules_fire finds the slot
-- gone, and a 0.5.0 scheduler that read the schedule before
-- jq_schedules_fire_due fired it changes nothing (next_run_at is no longer
-- what it read). Concurrent callers take different rows (FOR UPDATE SKIP
-- LOCKED, jq_schedules_due's lock): tests/test_schedules.py races them.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('a', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select count(*) from jq.jq_schedule_put('b', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:01Z') \gset

-- 'a' by a 0.5.0 scheduler, then jq_schedules_fire_due.
select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{a}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (1, 1)$$, 'a 0.5.0 scheduler fires a');
select is(jq.jq_schedules_fire_due(), 1, 'jq_schedules_fire_due fires b only');
select is(jq.jq_schedules_fire_due(), 0, 'and nothing on a second call');
-- 'b' read as due by a 0.5.0 scheduler before jq_schedules_fire_due fired it.
select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{b}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (0, 0)$$, 'the late 0.5.0 fire of b changes nothing');
select results_eq($$select idempotency_key from jq.jobs order by 1$$,
                  $$values ('schedule:a:2026-03-01T08:00:00Z'::text), ('schedule:b:2026-03-01T08:00:00Z')$$,
                  'one job per slot');

select * from finish();
rollback;
