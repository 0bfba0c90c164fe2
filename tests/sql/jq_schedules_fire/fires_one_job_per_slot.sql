-- A slot becomes one job of the schedule's queue, type, payload, priority
-- and max_attempts (the settings' default when null), keyed
-- schedule:<name>:<slot UTC>, run_at = slot + jq._schedule_offset; the
-- schedule's next_run_at advances and last_slot_at records the slot.
begin;
select plan(6);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('digest:42', '0 8 * * *', 'Asia/Kolkata', 'send_digest', '{"user_id": 42}',
                                        'digests', 7, 600, null, 'latest', '2026-03-01 02:30Z') \gset
select jq_test.set_now('2026-03-01 02:30:04Z') \gset

select results_eq(
    $$select schedules, jobs from jq.jq_schedules_fire('{digest:42}', '{2026-03-01 02:30Z}', '{2026-03-01 02:30Z}',
                                                       '{2026-03-02 02:30Z}')$$,
    $$values (1, 1)$$, 'one schedule advanced, one job enqueued');
select results_eq(
    $$select queue, type, payload, priority, max_attempts, idempotency_key, status, attempts, created_at from jq.jobs$$,
    $$values ('digests'::text, 'send_digest'::text, '{"user_id": 42}'::jsonb, 7::smallint, 25::smallint,
              'schedule:digest:42:2026-03-01T02:30:00Z'::text, 'pending'::text, 0::smallint,
              '2026-03-01 02:30:04Z'::timestamptz)$$,
    'the job carries the schedule''s fields, the default max_attempts and the slot''s key');
select is((select run_at from jq.jobs),
          '2026-03-01 02:30Z'::timestamptz + jq._schedule_offset('digest:42', '2026-03-01 02:30Z', 600),
          'run_at = slot + the jitter offset of (name, slot)');
select ok((select run_at >= '2026-03-01 02:30Z' and run_at < '2026-03-01 02:40Z' from jq.jobs),
          'within [slot, slot + jitter_seconds)');
select results_eq($$select next_run_at, last_slot_at from jq.jq_schedules('digest:42')$$,
                  $$values ('2026-03-02 02:30Z'::timestamptz, '2026-03-01 02:30Z'::timestamptz)$$,
                  'next_run_at advanced, last_slot_at is the slot');
select results_eq($$select k.job_id from jq.idempotency_keys k
                     where k.queue = 'digests' and k.idempotency_key = 'schedule:digest:42:2026-03-01T02:30:00Z'$$,
                  $$select id from jq.jobs$$, 'the key is taken by the job');

select * from finish();
rollback;
