-- A job with a future run_at that was never attempted is 'scheduled'; once
-- its run_at has come it is 'queued'.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select job_id as id from jq.jq_enqueue('report.build', '{}', 'status_q', 0, '2030-01-15 08:10Z') \gset

select results_eq(
    format('select status, attempts, run_at, next_attempt_at, finished_at from jq.jq_status(%L)', :'id'),
    $$values ('scheduled'::text, 0::smallint, '2030-01-15 08:10Z'::timestamptz, null::timestamptz, null::timestamptz)$$,
    'a future job is scheduled at its run_at, with no next attempt');

select jq_test.advance('9 minutes 59 seconds') \gset
select is((select status from jq.jq_status(:'id')), 'scheduled', 'one second before its run_at it is still scheduled');

select jq_test.advance('1 second') \gset
select is((select status from jq.jq_status(:'id')), 'queued', 'at its run_at it is queued');
select is((select attempts from jq.jq_status(:'id')), 0::smallint, 'still with no attempt');

select * from finish();
rollback;
