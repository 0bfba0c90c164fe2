-- jq_schedules_due claims enabled schedules whose next_run_at has come or
-- is null (never computed), oldest first, at most p_limit, and returns jq's
-- clock as as_of.
begin;
select plan(7);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('early', '0 7 * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 07:00Z') \gset
select count(*) from jq.jq_schedule_put('later', '0 8 * * *', 'Asia/Kolkata', 't', p_next_run_at => '2026-03-01 07:59Z') \gset
select count(*) from jq.jq_schedule_put('future', '0 9 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 09:00Z') \gset
select count(*) from jq.jq_schedule_put('paused', '0 6 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 06:00Z') \gset
select jq.jq_schedule_pause('paused') \gset
select count(*) from jq.jq_schedule_put('fresh', '@hourly', 'UTC', 't') \gset

select jq_test.set_now('2026-03-01 08:00Z') \gset

select results_eq(
    $$select name, cron, timezone, missed, next_run_at, updated_at, as_of from jq.jq_schedules_due() order by name$$,
    $$values ('early'::text, '0 7 * * *'::text, 'UTC'::text, 'all'::text, '2026-03-01 07:00Z'::timestamptz,
              '2026-03-01 00:00Z'::timestamptz, '2026-03-01 08:00Z'::timestamptz),
             ('fresh', '@hourly', 'UTC', 'latest', null, '2026-03-01 00:00Z', '2026-03-01 08:00Z'),
             ('later', '0 8 * * *', 'Asia/Kolkata', 'latest', '2026-03-01 07:59Z', '2026-03-01 00:00Z', '2026-03-01 08:00Z')$$,
    'due (next_run_at <= now) and never-computed (null) schedules; not future, not paused');
select is((select count(*)::int from jq.jq_schedules_due(1)), 1, 'at most limit rows');
select results_eq($$select name from jq.jq_schedules_due(2) where next_run_at is not null$$,
                  $$values ('early'::text)$$, 'null ones first, then the oldest next_run_at');
select is((select count(*)::int from jq.jq_schedules_due(100000)), 3, 'limit 100000 is allowed');
select throws_ok($$select * from jq.jq_schedules_due(0)$$, '22023', null, 'limit 0 raises 22023');
select throws_ok($$select * from jq.jq_schedules_due(100001)$$, '22023', null, 'limit 100001 raises 22023');
select throws_ok($$select * from jq.jq_schedules_due(null)$$, '22023', null, 'a null limit raises 22023');

select * from finish();
rollback;
