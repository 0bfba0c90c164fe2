-- After a cancel request, the worker's jq_fail ends the job as cancelled (not
-- retried, not dead), even on its last attempt.
begin;
select plan(8);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q', 5) as id \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q', 1) as last_try \gset
select jq.jq_cancel(:'id') as c1, jq.jq_cancel(:'last_try') as c2 \gset
select jq_test.advance('30 seconds') as t1 \gset

select results_eq(
    format('select status, next_attempt_at from jq.jq_fail(%L, %L, %L)', :'id', 'w1', 'stopped: cancel requested'),
    $$values ('cancelled'::text, null::timestamptz)$$,
    'jq_fail by its worker answers cancelled, with no next attempt');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'the job has left jq.jobs');
select is((select count(*)::int from jq.dead_jobs where id = :'id'), 0, 'it is not dead-lettered');
select results_eq(
    format('select status, attempts, last_error, finished_at from jq.job_history where id = %L', :'id'),
    format('values (%L::text, 1::smallint, %L::text, %L::timestamptz)', 'cancelled', 'stopped: cancel requested', :'t1'),
    'history records it cancelled with the error the worker gave');
select results_eq(
    format('select status, finished_at from jq.jq_status(%L)', :'id'),
    format('values (%L::text, %L::timestamptz)', 'cancelled', :'t1'),
    'jq_status says cancelled');

select is((select status from jq.jq_fail(:'last_try', 'w1', 'stopped')), 'cancelled',
          'on its last attempt a cancel-requested job still ends cancelled, not dead');
select is((select count(*)::int from jq.dead_jobs where id = :'last_try'), 0, 'so it is not in jq.dead_jobs');
select is((select status from jq.jq_status(:'last_try')), 'cancelled', 'and jq_status says cancelled');

select * from finish();
rollback;
