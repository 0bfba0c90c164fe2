-- A cancel-requested job whose worker vanished: when its lease expires it is
-- not run again but recorded as cancelled (by jq_maintain or the next claim).
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q', 5, '1 minute') as id \gset
select jq.jq_cancel(:'id') as c \gset
select jq_test.advance('2 minutes') \gset

select is((select count(*)::int from jq.jq_claim('cancel_q', 'w2', 10)), 0,
          'a claim after the lease expired does not run the job again');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'the job has left jq.jobs');
select is((select status from jq.jq_status(:'id')), 'cancelled', 'jq_status says cancelled');
select is((select count(*)::int from jq.dead_jobs where id = :'id'), 0, 'it is not dead-lettered');

select * from finish();
rollback;
