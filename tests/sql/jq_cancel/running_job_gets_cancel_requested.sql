-- A running job cannot be pulled from its worker: jq_cancel answers 'running'
-- (the HTTP layer's 409 JOB_RUNNING), sets cancel_requested, leaves the job
-- leased in jq.jobs, and the worker's next jq_heartbeat reports it.
begin;
select plan(9);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q') as id \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'cancel_q') as other \gset

select is(jq.jq_cancel(:'id'), 'running', 'cancelling a running job answers running');
select results_eq(
    format('select status, locked_by, cancel_requested from jq.jobs where id = %L', :'id'),
    $$values ('processing'::text, 'w1'::text, true)$$,
    'the job stays leased to its worker in jq.jobs, with cancel_requested set');
select is((select count(*)::int from jq.job_history where id = :'id'), 0, 'nothing is recorded in history yet');
select results_eq(
    format('select status, cancel_requested from jq.jq_status(%L)', :'id'),
    $$values ('running'::text, true)$$,
    'jq_status still says running, with cancel_requested');

select jq_test.advance('1 minute') as t1 \gset
select results_eq(
    format('select job_id, state from jq.jq_heartbeat(array[%L, %L]::uuid[], %L) order by state', :'id', :'other', 'w1'),
    format('values (%L::uuid, %L::text), (%L::uuid, %L::text)', :'id', 'cancel_requested', :'other', 'ok'),
    'the next heartbeat reports cancel_requested for that job only');
select is((select locked_until from jq.jobs where id = :'id'), :'t1'::timestamptz + interval '5 minutes',
          'the heartbeat still extends its lease, so the handler can stop cleanly');
select is((select cancel_requested from jq.jobs where id = :'other'), false, 'the other running job is not marked');

select is(jq.jq_cancel(:'id'), 'running', 'cancelling it again still answers running');
select is((select count(*)::int from jq.jobs where id = :'id' and status = 'processing'), 1, 'and the job is still running');

select * from finish();
rollback;
