-- A job waiting for its retry (pending after a failed attempt) is pending, so
-- jq_cancel removes it at once and keeps its last error in history.
begin;
select plan(5);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'sync.crm', 'cancel_q', 5) as id \gset
select status as fail_status from jq.jq_fail(:'id', 'w1', 'HTTP 503 from upstream', '1 hour') \gset

select is(:'fail_status'::text, 'failed_retrying', 'the job is waiting for its retry');
select is(jq.jq_cancel(:'id'), 'cancelled', 'cancelling it answers cancelled');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'the job is gone from jq.jobs');
select results_eq(
    format('select status, attempts, last_error from jq.job_history where id = %L', :'id'),
    $$values ('cancelled'::text, 1::smallint, 'HTTP 503 from upstream'::text)$$,
    'history: cancelled after one attempt, with the last error');
select is((select status from jq.jq_status(:'id')), 'cancelled', 'jq_status reports cancelled');

select * from finish();
rollback;
