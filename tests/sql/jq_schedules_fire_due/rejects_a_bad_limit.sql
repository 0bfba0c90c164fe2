-- The limit is 1 to 100000 (as jq_schedules_due's); outside, 22023 and
-- nothing changes.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:05Z') \gset

select throws_ok($$select jq.jq_schedules_fire_due(0)$$, '22023', null, 'limit 0 raises 22023');
select throws_ok($$select jq.jq_schedules_fire_due(100001)$$, '22023', null, 'limit 100001 raises 22023');
select throws_ok($$select jq.jq_schedules_fire_due(null)$$, '22023', null, 'a null limit raises 22023');
select results_eq($$select (select count(*)::int from jq.jobs), (select next_run_at from jq.schedules)$$,
                  $$values (0, '2026-03-01 08:00Z'::timestamptz)$$, 'nothing changed: no job, next_run_at as it was');
select is(jq.jq_schedules_fire_due(1), 1, 'limit 1 fires one');

select * from finish();
rollback;
