-- A running job whose cancellation was requested and whose lease then
-- expired ends in history as cancelled; it is not run again.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'claim_cancel', 5, '1 minute') as job \gset
select is(jq.jq_cancel(:'job'::uuid), 'running', 'cancellation requested while running');

select jq_test.advance('2 minutes') \gset
select is_empty($$select * from jq.jq_claim('claim_cancel', 'w2', 10)$$, 'the next claim does not return it');
select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'it left jq.jobs');
select is((select status from jq.job_history where id = :'job'), 'cancelled', 'history records it as cancelled');
select is((select count(*)::int from jq.dead_jobs where id = :'job'), 0, 'it is not dead-lettered');

select * from finish();
rollback;
