-- Invariant 7: the same (queue, key) within its window yields the same job
-- id, with duplicate = true and the original's current status; the second
-- call's arguments are ignored.
begin;
select plan(12);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as original from jq.jq_enqueue('t', '{"n": 1}', 'default', 0, null, null, 'order-1') \gset
create temp table dup as select * from jq.jq_enqueue('t', '{"n": 2}', 'default', 9, null, null, 'order-1');

select is((select job_id from dup), :'original'::uuid, 'the same key returns the original id');
select is((select duplicate from dup), true, 'duplicate is true');
select is((select status from dup), 'queued', 'the original''s status (queued) is returned');
select is((select count(*)::int from jq.jobs where idempotency_key = 'order-1'), 1, 'no second job was inserted');
select is((select payload from jq.jobs where id = :'original'), '{"n": 1}'::jsonb,
          'the original payload is kept');
select is((select priority from jq.jobs where id = :'original'), 0::smallint, 'the original priority is kept');

-- A different type under the same key is still the same job: the key alone decides.
select is((select job_id from jq.jq_enqueue('other.type', '{}', 'default', 0, null, null, 'order-1')),
          :'original'::uuid, 'the key dedupes whatever the type');

-- The duplicate reports the original's live status.
select job_id as sched from jq.jq_enqueue('t', '{}', 'default', 0, '2030-01-02 12:00Z', null, 'order-2') \gset
select is((select status from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'order-2')),
          'scheduled', 'a duplicate of a scheduled job reports scheduled');

select job_id as running from jq.jq_enqueue('running.t', '{}', 'default', 0, null, null, 'order-3') \gset
select is((select count(*)::int from jq.jq_claim('default', 'w1', 1, '5 minutes', array['running.t'])), 1,
          'the third job is claimed');
select results_eq($$select job_id, status, duplicate from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'order-3')$$,
                  format($$values (%L::uuid, 'running'::text, true)$$, :'running'),
                  'a duplicate of a running job reports running');

-- Null keys never dedupe.
select isnt((select job_id from jq.jq_enqueue('t')), (select job_id from jq.jq_enqueue('t')),
            'two enqueues without a key make two jobs');
select is((select count(*)::int from jq.idempotency_keys), 3, 'one key row per distinct key, none for null keys');

select * from finish();
rollback;
