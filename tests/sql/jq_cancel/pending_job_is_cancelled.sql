-- A pending (ready) job: jq_cancel removes it from jq.jobs, records it in
-- jq.job_history as cancelled, and answers 'cancelled'. Other jobs are untouched.
begin;
select plan(9);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select job_id as id from jq.jq_enqueue('email.send', '{"to": "a@example.com"}', 'cancel_q') \gset
select job_id as other from jq.jq_enqueue('email.send', '{"to": "b@example.com"}', 'cancel_q') \gset
select jq_test.advance('1 minute') as t1 \gset

select is(jq.jq_cancel(:'id'), 'cancelled', 'cancelling a queued job answers cancelled');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'the job is gone from jq.jobs');
select results_eq(
    format('select status, attempts, run_at, created_at, finished_at from jq.job_history where id = %L', :'id'),
    format('values (%L::text, 0::smallint, %L::timestamptz, %L::timestamptz, %L::timestamptz)',
           'cancelled', :'t0', :'t0', :'t1'),
    'one history row: cancelled, never attempted, finished at the time of the cancel');
select is((select count(*)::int from jq.dead_jobs where id = :'id'), 0, 'a cancelled job is not dead-lettered');
select is((select status from jq.jq_status(:'id')), 'cancelled', 'jq_status reports cancelled');
select is((select status from jq.jq_status(:'other')), 'queued', 'the other job of the queue is still queued');
select is((select count(*)::int from jq.jq_claim('cancel_q', 'w1', 10)), 1,
          'a claim on the queue gets only the job that was not cancelled');
select is(jq.jq_cancel(:'id'), 'finished', 'cancelling it again answers finished');
select is((select count(*)::int from jq.job_history where id = :'id'), 1, 'and records nothing more');

select * from finish();
rollback;
