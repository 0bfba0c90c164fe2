-- The attack: a role holding only jq_producer moved the clock past the
-- idempotency window and got a new job for a key used minutes before (its job had
-- finished), and forged created_at / run_at (stored as 2001-01-01). With the test clock off,
-- the key holds and the job's times are the server's.
begin;
select plan(6);

update jq.settings set allow_test_clock = false;

set local role jq_producer;
select job_id as first_id from jq.jq_enqueue('sec_dedupe', '{}', 'sec_dedupe', p_idempotency_key => 'k-1') \gset
reset role;
-- The job runs and finishes: its key stays taken for the idempotency window.
select count(*) from jq.jq_claim('sec_dedupe', 'w', 1, '1 minute');
select count(*) from jq.jq_complete(array[:'first_id'::uuid], 'w');
set local role jq_producer;
set local jq.now = '2100-01-01 00:00Z';
select job_id as second_id, duplicate as second_dup
  from jq.jq_enqueue('sec_dedupe', '{}', 'sec_dedupe', p_idempotency_key => 'k-1') \gset
set local jq.now = '2001-01-01 00:00Z';
select job_id as forged_id from jq.jq_enqueue('sec_dedupe', '{}', 'sec_dedupe') \gset
reset role;
set local role jq_admin;
set local jq.now = '2100-01-01 00:00Z';
select duplicate as admin_dup from jq.jq_enqueue('sec_dedupe', '{}', 'sec_dedupe', p_idempotency_key => 'k-1') \gset
reset role;
reset jq.now;

select is(:'second_id'::uuid, :'first_id'::uuid, 'jq_producer under jq.now = 2100 gets the same job for the key');
select ok(:'second_dup'::boolean, '... as a duplicate');
select ok(:'admin_dup'::boolean, 'jq_admin under jq.now = 2100 gets a duplicate too');
select ok((select abs(extract(epoch from created_at - now())) < 5 from jq.jobs where id = :'forged_id'),
          'created_at is the server''s time, not the forged 2001-01-01');
select ok((select abs(extract(epoch from run_at - now())) < 5 from jq.jobs where id = :'forged_id'),
          'run_at (run now) is the server''s time too');
select is((select count(*) from jq.jobs where type = 'sec_dedupe'), 1::bigint,
          'one live job: the unkeyed one (the keyed one finished and was not enqueued again)');

select * from finish();
rollback;
