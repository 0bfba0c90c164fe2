-- Cancellation is cooperative: a worker that completes the job anyway wins,
-- and the job ends succeeded.
begin;
select plan(5);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q') as id \gset
select jq.jq_cancel(:'id') as c \gset

select is(:'c'::text, 'running', 'the cancel was only requested');
select results_eq(
    format('select * from jq.jq_complete(array[%L]::uuid[], %L)', :'id', 'w1'),
    format('values (%L::uuid)', :'id'),
    'the worker can still complete it');
select is((select status from jq.job_history where id = :'id'), 'succeeded', 'history records it succeeded');
select is((select status from jq.jq_status(:'id')), 'succeeded', 'jq_status says succeeded');
select is(jq.jq_cancel(:'id'), 'finished', 'a later cancel answers finished');

select * from finish();
rollback;
