-- A scheduled job (future run_at): cancelled like a queued one, and never runs.
begin;
select plan(6);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select job_id as id, status as enqueued_status
  from jq.jq_enqueue('report.build', '{}', 'cancel_q', 0, '2030-01-15 09:00Z') \gset

select is(:'enqueued_status'::text, 'scheduled', 'the job was enqueued as scheduled');
select is(jq.jq_cancel(:'id'), 'cancelled', 'cancelling a scheduled job answers cancelled');
select is((select count(*)::int from jq.jobs where id = :'id'), 0, 'the job is gone from jq.jobs');
select results_eq(
    format('select status, run_at, finished_at from jq.job_history where id = %L', :'id'),
    format('values (%L::text, %L::timestamptz, %L::timestamptz)', 'cancelled', '2030-01-15 09:00Z', :'t0'),
    'history keeps its run_at and records it cancelled now');
select is((select status from jq.jq_status(:'id')), 'cancelled', 'jq_status reports cancelled');

select jq_test.advance('2 hours') \gset
select is((select count(*)::int from jq.jq_claim('cancel_q', 'w1', 10)), 0,
          'after its run_at has passed nothing is claimable');

select * from finish();
rollback;
