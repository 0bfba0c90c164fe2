-- A new schedule: created = true, every argument stored, created_at and
-- updated_at from jq's clock. next_run_at is what the caller computed (pyjq
-- passes croniter's), or null until the next scheduler tick computes it.
begin;
select plan(6);

select jq_test.set_now('2026-03-01 00:00Z') \gset

select results_eq(
    $$select name, created, next_run_at from jq.jq_schedule_put('digest', '0 8 * * *', 'Asia/Kolkata', 'send_digest',
        '{"user_id": 42}', 'digests', 5, 600, 3, 'all', '2026-03-01 02:30Z')$$,
    $$values ('digest'::text, true, '2026-03-01 02:30Z'::timestamptz)$$,
    'put returns (name, created = true, next_run_at)');
select results_eq(
    $$select name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed, paused,
             next_run_at, last_slot_at, created_at, updated_at from jq.jq_schedules('digest')$$,
    $$values ('digest'::text, '0 8 * * *'::text, 'Asia/Kolkata'::text, 'send_digest'::text, '{"user_id": 42}'::jsonb,
              'digests'::text, 5::smallint, 600, 3::smallint, 'all'::text, false, '2026-03-01 02:30Z'::timestamptz,
              null::timestamptz, '2026-03-01 00:00Z'::timestamptz, '2026-03-01 00:00Z'::timestamptz)$$,
    'every argument is stored; created_at and updated_at are jq''s clock');

select results_eq(
    $$select name, created, next_run_at from jq.jq_schedule_put('nightly', '@daily', 'UTC', 'report.build')$$,
    $$values ('nightly'::text, true, null::timestamptz)$$,
    'without next_run_at (from SQL) it stays null until a scheduler tick computes it');
select results_eq(
    $$select payload, queue, priority, jitter_seconds, max_attempts, missed, paused from jq.jq_schedules('nightly')$$,
    $$values ('{}'::jsonb, 'default'::text, 0::smallint, 0, null::smallint, 'latest'::text, false)$$,
    'defaults: payload {}, queue default, priority 0, no jitter, default max_attempts, missed latest, active');
select is((select enabled from jq.schedules where name = 'nightly'), true, 'stored enabled');
select lives_ok($$select jq.jq_schedule_put(repeat('n', 128), '* * * * *', 'UTC', 't')$$,
                'a name of 128 characters is allowed');

select * from finish();
rollback;
