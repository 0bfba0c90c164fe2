-- A worker shutting down hands back a cancel-requested job with jq_release:
-- it ends cancelled instead of going back to the queue.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q') as id \gset
select jq.jq_cancel(:'id') as c \gset

select results_eq(
    format('select job_id, status from jq.jq_release(array[%L]::uuid[], %L)', :'id', 'w1'),
    format('values (%L::uuid, %L::text)', :'id', 'cancelled'),
    'jq_release reports the job cancelled');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'it is not back in jq.jobs');
select is((select status from jq.jq_status(:'id')), 'cancelled', 'jq_status says cancelled');
select is((select count(*)::int from jq.jq_claim('cancel_q', 'w2', 10)), 0, 'no other worker can claim it');

select * from finish();
rollback;
