-- A tick that dies before commit changes nothing: the schedule keeps its
-- next_run_at, no job or key remains, and the next tick fires the same slot
-- with the same run_at.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_jitter_seconds => 600,
                                        p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:02Z') \gset

savepoint tick;
select count(*) from jq.jq_schedules_due() \gset
select count(*) from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{2026-03-02 08:00Z}') \gset
select run_at as first_run_at from jq.jobs \gset
rollback to savepoint tick;

select is((select next_run_at from jq.jq_schedules('d')), '2026-03-01 08:00Z'::timestamptz, 'next_run_at is unchanged');
select is((select count(*)::int from jq.jobs), 0, 'no job remains');
select is((select count(*)::int from jq.idempotency_keys), 0, 'no key remains');

select count(*) from jq.jq_schedules_due() \gset
select results_eq($$select schedules, jobs from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                                     '{2026-03-02 08:00Z}')$$,
                  $$values (1, 1)$$, 'the next tick fires the slot');
select is((select run_at from jq.jobs), :'first_run_at'::timestamptz, 'with the same run_at');

select * from finish();
rollback;
