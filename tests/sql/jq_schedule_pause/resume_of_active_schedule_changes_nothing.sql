-- Resuming a schedule that is not paused keeps its next_run_at; null names
-- raise 22004.
begin;
select plan(4);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 01:00Z') \gset

select is(jq.jq_schedule_resume('d'), true, 'resuming an active schedule returns true');
select results_eq($$select paused, next_run_at, updated_at from jq.jq_schedules('d')$$,
                  $$values (false, '2026-03-01 08:00Z'::timestamptz, '2026-03-01 00:00Z'::timestamptz)$$,
                  'and changes nothing');
select throws_ok($$select jq.jq_schedule_pause(null)$$, '22004', null, 'pause(null) raises 22004');
select throws_ok($$select jq.jq_schedule_resume(null)$$, '22004', null, 'resume(null) raises 22004');

select * from finish();
rollback;
