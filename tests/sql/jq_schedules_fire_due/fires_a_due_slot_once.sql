-- A due slot becomes one job, keyed schedule:<name>:<slot UTC>, with the
-- schedule's fields and run_at = slot + jq._schedule_offset; next_run_at
-- moves to the next slot, computed in SQL. A second call fires nothing.
begin;
select plan(6);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('digest:42', '0 8 * * *', 'Asia/Kolkata', 'send_digest', '{"user_id": 42}',
                                        'digests', 7, 600, null, 'latest', '2026-03-01 02:30Z') \gset
select jq_test.set_now('2026-03-01 02:30:04Z') \gset

select is(jq.jq_schedules_fire_due(), 1, 'one job enqueued');
select results_eq(
    $$select queue, type, payload, priority, idempotency_key, run_at from jq.jobs$$,
    $$values ('digests'::text, 'send_digest'::text, '{"user_id": 42}'::jsonb, 7::smallint,
              'schedule:digest:42:2026-03-01T02:30:00Z'::text,
              '2026-03-01 02:30Z'::timestamptz + jq._schedule_offset('digest:42', '2026-03-01 02:30Z', 600))$$,
    'the schedule''s job for the slot, its key and its jittered run_at');
select results_eq($$select next_run_at, last_slot_at from jq.jq_schedules('digest:42')$$,
                  $$values ('2026-03-02 02:30Z'::timestamptz, '2026-03-01 02:30Z'::timestamptz)$$,
                  'next_run_at is the next 08:00 in Kolkata, last_slot_at the slot');
select is(jq.jq_schedules_fire_due(), 0, 'a second call fires nothing');
select jq_test.set_now('2026-03-02 02:29:59Z') \gset
select is(jq.jq_schedules_fire_due(), 0, 'nothing before the next slot');
select is((select count(*)::int from jq.jobs), 1, 'one job in all');

select * from finish();
rollback;
