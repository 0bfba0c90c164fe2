-- Malformed calls raise and change nothing: null arrays (22004), arrays of
-- different lengths, slots in the future, before due_at or not before
-- next_run_at, and a schedule given different due_at or next_run_at values
-- (22023).
begin;
select plan(11);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:05Z') \gset

select throws_ok($$select * from jq.jq_schedules_fire(null, '{}', '{}', '{}')$$, '22004', null, 'null names');
select throws_ok($$select * from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{}')$$,
                 '22023', null, 'arrays of different lengths');
select throws_ok($$select * from jq.jq_schedules_fire('{NULL}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{2026-03-02 08:00Z}')$$,
                 '22004', null, 'a null name');
select throws_ok($$select * from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{NULL}')$$,
                 '22004', null, 'a null next_run_at');
select throws_ok($$select * from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 09:00Z}', '{2026-03-02 08:00Z}')$$,
                 '22023', null, 'a slot in the future');
select throws_ok($$select * from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 07:00Z}', '{2026-03-02 08:00Z}')$$,
                 '22023', null, 'a slot before due_at');
select throws_ok($$select * from jq.jq_schedules_fire('{d}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}')$$,
                 '22023', null, 'a next_run_at not after the slot');
select throws_ok($$select * from jq.jq_schedules_fire('{d,d}', '{2026-03-01 08:00Z,2026-03-01 08:00Z}',
                                                      '{2026-03-01 08:00Z,NULL}', '{2026-03-02 08:00Z,2026-03-03 08:00Z}')$$,
                 '22023', null, 'one schedule with two next_run_at values');
select throws_ok($$select * from jq.jq_schedules_fire('{d,d}', '{2026-03-01 08:00Z,NULL}',
                                                      '{2026-03-01 08:00Z,NULL}', '{2026-03-02 08:00Z,2026-03-02 08:00Z}')$$,
                 '22023', null, 'one schedule with two due_at values');
select is((select next_run_at from jq.jq_schedules('d')), '2026-03-01 08:00Z'::timestamptz, 'nothing changed');
select is((select count(*)::int from jq.jobs), 0, 'no job');

select * from finish();
rollback;
