-- A slot fires once: a second call with the same due_at finds next_run_at
-- moved and does nothing; and a slot fired before (within the idempotency
-- window) is not enqueued again even for a re-created schedule.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:01Z') \gset

select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (1, 1)$$, 'the first fire enqueues the job');
select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (0, 0)$$, 'the same due_at again: next_run_at has moved, nothing happens');

select jq.jq_schedule_delete('d') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (1, 0)$$, 're-created: it advances, but the slot''s key is taken, so no second job');
select is((select count(*)::int from jq.jobs), 1, 'one job in all');
select is((select next_run_at from jq.jq_schedules('d')), '2026-03-02 08:00Z'::timestamptz, 'next_run_at advanced');

select * from finish();
rollback;
