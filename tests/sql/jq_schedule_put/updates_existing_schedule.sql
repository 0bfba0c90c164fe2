-- A second put of the same name replaces every field: created = false,
-- created_at kept, updated_at moved. A paused schedule stays paused.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('digest', '0 8 * * *', 'Asia/Kolkata', 'send_digest', '{"a": 1}',
                                        'digests', 5, 600, 3, 'all') \gset
select jq.jq_schedule_pause('digest') \gset
select jq_test.set_now('2026-03-02 00:00Z') \gset

select results_eq(
    $$select name, created from jq.jq_schedule_put('digest', '30 9 * * 1-5', 'Europe/Berlin', 'send_summary')$$,
    $$values ('digest'::text, false)$$,
    'put of an existing name returns created = false');
select results_eq(
    $$select cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed
        from jq.jq_schedules('digest')$$,
    $$values ('30 9 * * 1-5'::text, 'Europe/Berlin'::text, 'send_summary'::text, '{}'::jsonb, 'default'::text,
              0::smallint, 0, null::smallint, 'latest'::text)$$,
    'every field is replaced, omitted ones by their defaults');
select results_eq($$select created_at, updated_at from jq.jq_schedules('digest')$$,
                  $$values ('2026-03-01 00:00Z'::timestamptz, '2026-03-02 00:00Z'::timestamptz)$$,
                  'created_at is kept, updated_at moves');
select is((select paused from jq.jq_schedules('digest')), true, 'a paused schedule stays paused');
select is((select count(*)::int from jq.schedules), 1, 'still one schedule');

select * from finish();
rollback;
