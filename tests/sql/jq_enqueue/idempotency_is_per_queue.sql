-- Idempotency keys are unique per (queue, key): the same key in another
-- queue is another job.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as in_a from jq.jq_enqueue('t', '{}', 'queue_a', 0, null, null, 'shared-key') \gset
create temp table in_b as select * from jq.jq_enqueue('t', '{}', 'queue_b', 0, null, null, 'shared-key');

select isnt((select job_id from in_b), :'in_a'::uuid, 'the same key in another queue makes a new job');
select is((select duplicate from in_b), false, 'and it is not a duplicate');
select is((select count(*)::int from jq.jobs where idempotency_key = 'shared-key'), 2, 'both jobs exist');
select is((select job_id from jq.jq_enqueue('t', '{}', 'queue_b', 0, null, null, 'shared-key')),
          (select job_id from in_b), 'within queue_b the key still dedupes');

select * from finish();
rollback;
