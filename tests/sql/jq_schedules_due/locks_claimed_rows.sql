-- The rows jq_schedules_due returns stay locked FOR UPDATE until the
-- transaction ends (other schedulers skip them: tests/test_schedules.py runs
-- three at once). Seen from inside: the row-lock info of the claimed rows.
begin;
select plan(2);

create extension if not exists pgrowlocks;
select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('a', '0 7 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 07:00Z') \gset
select count(*) from jq.jq_schedule_put('b', '0 9 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 09:00Z') \gset
select jq_test.set_now('2026-03-01 08:00Z') \gset

select is((select count(*)::int from jq.jq_schedules_due()), 1, 'one schedule is due');
select results_eq(
    $$select s.name, l.modes from pgrowlocks('jq.schedules') l join jq.schedules s on s.ctid = l.locked_row$$,
    $$values ('a'::text, '{"For Update"}'::text[])$$,
    'it, and only it, is locked FOR UPDATE by this transaction');

select * from finish();
rollback;
