-- missed = all: every slot that passed fires, in one call up to 1,000 per
-- schedule; the rest on the next calls, each slot once.
begin;
select plan(6);

select jq_test.set_now('2026-03-01 07:30Z') \gset
select count(*) from jq.jq_schedule_put('hourly', '0 * * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-02 08:30Z') \gset

select is(jq.jq_schedules_fire_due(), 25, 'the 25 slots from 08:00 on the 1st to 08:00 on the 2nd');
select is((select count(distinct idempotency_key)::int from jq.jobs where idempotency_key like 'schedule:hourly:%'), 25,
          'each once');
select is((select next_run_at from jq.jq_schedules('hourly')), '2026-03-02 09:00Z'::timestamptz,
          'next_run_at is the next slot');

-- A backlog of 1,500 minutes (08:00 on the 1st to 08:59 on the 2nd).
select count(*) from jq.jq_schedule_put('minutely', '* * * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-02 08:59Z') \gset
select is(jq.jq_schedules_fire_due(), 1000, 'one call: 1,000 of them');
select is(jq.jq_schedules_fire_due(), 500, 'the next call: the other 500');
select is((select count(distinct idempotency_key)::int from jq.jobs where idempotency_key like 'schedule:minutely:%'),
          1500, 'each minute once');

select * from finish();
rollback;
