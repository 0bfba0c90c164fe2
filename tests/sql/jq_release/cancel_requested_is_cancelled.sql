-- Releasing a job whose cancellation was requested cancels it instead.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'rel_cancel') as job \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'rel_cancel') as other \gset
select is(jq.jq_cancel(:'job'::uuid), 'running', 'cancellation requested while running');

select set_eq(format($$select job_id, status from jq.jq_release(array[%L, %L]::uuid[], 'w1')$$, :'job', :'other'),
              format($$values (%L::uuid, 'cancelled'::text), (%L::uuid, 'released'::text)$$, :'job', :'other'),
              'the cancel-requested job is cancelled, the other released');
select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'the cancelled job left jq.jobs');
select is((select status from jq.job_history where id = :'job'), 'cancelled', 'history records it as cancelled');
select is((select status from jq.jobs where id = :'other'), 'pending', 'the other job is pending again');

select * from finish();
rollback;
