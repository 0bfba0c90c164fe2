-- jq_schedules(): every schedule by name; jq_schedules(name): that one, or
-- no row. The return shape is fixed.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('b', '0 8 * * *', 'Europe/Berlin', 't') \gset
select count(*) from jq.jq_schedule_put('a', '*/5 * * * *', 'UTC', 'u', p_missed => 'none') \gset
select jq.jq_schedule_pause('b') \gset

select is(pg_get_function_result('jq.jq_schedules(text)'::regprocedure),
          'TABLE(name text, cron text, timezone text, type text, payload jsonb, queue text, priority smallint, '
          'jitter_seconds integer, max_attempts smallint, missed text, paused boolean, next_run_at timestamp with time zone, '
          'last_slot_at timestamp with time zone, created_at timestamp with time zone, updated_at timestamp with time zone)',
          'the return shape');
select results_eq($$select name, cron, timezone, missed, paused from jq.jq_schedules()$$,
                  $$values ('a'::text, '*/5 * * * *'::text, 'UTC'::text, 'none'::text, false),
                           ('b', '0 8 * * *', 'Europe/Berlin', 'latest', true)$$,
                  'all schedules, by name, with paused');
select results_eq($$select name from jq.jq_schedules('b')$$, $$values ('b'::text)$$, 'one row for a name');
select is_empty($$select * from jq.jq_schedules('zzz')$$, 'no row for an unknown name');
select results_eq($$select count(*)::int from jq.jq_schedules(null)$$, $$values (2)$$, 'null lists all');

select * from finish();
rollback;
