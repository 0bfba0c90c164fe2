-- jq_claim leases at most p_limit jobs per call, and never the same job twice.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_ready(5, 'noop', 'claim_limit') \gset

create temp table first_claim as select * from jq.jq_claim('claim_limit', 'w1', 3);
select is((select count(*)::int from first_claim), 3, 'limit 3 of 5 ready jobs claims 3');
select is((select count(*)::int from jq.jq_claim('claim_limit', 'w1')), 1, 'the default limit is 1');
create temp table second_claim as select * from jq.jq_claim('claim_limit', 'w2', 10);
select is((select count(*)::int from second_claim), 1, 'limit 10 with one job left claims 1');
select is((select count(*)::int from second_claim s join first_claim f using (id)), 0,
          'no job is claimed twice');
select is_empty($$select * from jq.jq_claim('claim_limit', 'w3', 10)$$, 'an empty queue claims nothing');
select is((select count(*)::int from jq.jobs where queue = 'claim_limit' and status = 'processing'), 5,
          'all five jobs are processing');

select * from finish();
rollback;
