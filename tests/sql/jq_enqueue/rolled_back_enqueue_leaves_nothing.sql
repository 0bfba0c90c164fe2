-- Invariant 1: a job enqueued in a transaction that rolls back never exists,
-- and its idempotency key is not taken.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset

savepoint business_change;
select job_id as gone from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'rollback-key') \gset
rollback to savepoint business_change;

select is((select count(*)::int from jq.jobs where id = :'gone'), 0, 'the rolled-back job is not in jq.jobs');
select is((select count(*)::int from jq.idempotency_keys where idempotency_key = 'rollback-key'), 0,
          'its idempotency key was not kept');

create temp table again as select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'rollback-key');
select is((select duplicate from again), false, 'the key is free for the next enqueue');
select isnt((select job_id from again), :'gone'::uuid, 'the next enqueue gets a new id');

select * from finish();
rollback;
