-- Pause stops a schedule from firing; resume starts it again from the
-- resume time: next_run_at is cleared for the scheduler to compute from
-- updated_at, so slots that passed while it was paused never fire, whatever
-- its missed setting. Both return false for an unknown name.
begin;
select plan(12);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 08:00Z') \gset

select jq_test.set_now('2026-03-01 06:00Z') \gset
select is(jq.jq_schedule_pause('d'), true, 'pausing an existing schedule returns true');
select results_eq($$select paused, updated_at from jq.jq_schedules('d')$$,
                  $$values (true, '2026-03-01 06:00Z'::timestamptz)$$, 'it is listed as paused, updated now');

select jq_test.set_now('2026-03-03 09:00Z') \gset
select is_empty($$select * from jq.jq_schedules_due()$$, 'a paused schedule is never due, however late');
select is((select schedules from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                      '{2026-03-02 08:00Z}')), 0,
          'firing a paused schedule does nothing');
select is((select count(*)::int from jq.jobs), 0, 'and enqueues nothing');
select is(jq.jq_schedule_pause('d'), true, 'pausing it again returns true');
select is((select updated_at from jq.jq_schedules('d')), '2026-03-01 06:00Z'::timestamptz,
          'and changes nothing');

select is(jq.jq_schedule_resume('d'), true, 'resuming returns true');
select results_eq($$select paused, next_run_at, updated_at from jq.jq_schedules('d')$$,
                  $$values (false, null::timestamptz, '2026-03-03 09:00Z'::timestamptz)$$,
                  'resumed: active, next_run_at cleared, updated_at = the resume time');
select results_eq($$select name, next_run_at, updated_at from jq.jq_schedules_due()$$,
                  $$values ('d'::text, null::timestamptz, '2026-03-03 09:00Z'::timestamptz)$$,
                  'the next tick computes its next slot from the resume time');

select is(jq.jq_schedule_pause('nope'), false, 'pausing an unknown name returns false');
select is(jq.jq_schedule_resume('nope'), false, 'resuming an unknown name returns false');

select * from finish();
rollback;
