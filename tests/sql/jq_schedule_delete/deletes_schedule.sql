-- Delete: true when the schedule existed, false otherwise; the jobs it
-- already enqueued stay.
begin;
select plan(6);

select jq_test.set_now('2026-03-01 08:00:30Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select count(*) from jq.jq_schedules_due() \gset
select count(*) from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{2026-03-02 08:00Z}') \gset

select is(jq.jq_schedule_delete('d'), true, 'deleting an existing schedule returns true');
select is((select count(*)::int from jq.jq_schedules('d')), 0, 'it is gone');
select is((select count(*)::int from jq.jobs where idempotency_key = 'schedule:d:2026-03-01T08:00:00Z'), 1,
          'the job it enqueued stays');
select is(jq.jq_schedule_delete('d'), false, 'deleting it again returns false');
select is(jq.jq_schedule_delete('never-existed'), false, 'an unknown name returns false');
select throws_ok($$select jq.jq_schedule_delete(null)$$, '22004', null, 'a null name raises 22004');

select * from finish();
rollback;
