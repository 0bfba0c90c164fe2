-- Pending jobs (ready, scheduled, retrying) are cancelled into history as
-- jq_cancel does; running ones are asked to cancel (cancel_requested, seen
-- by the worker's heartbeat) and stay leased. Both count; a running job
-- already asked is not counted again. Audited.
begin;
select plan(7);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select (jq.jq_enqueue('cn.a', '{}', 'cn_q')).job_id as ready \gset
select (jq.jq_enqueue('cn.a', '{}', 'cn_q', 0, '2030-01-16 08:00Z')).job_id as scheduled \gset
select jq_test.enqueue_and_claim('w1', 'cn.a', 'cn_q') as running \gset
select (jq.jq_enqueue('cn.b', '{}', 'cn_q')).job_id as other \gset

select is(jq.jq_jobs_cancel('{"type": "cn.a"}'), 3, 'two pending jobs cancelled, one running job asked');
select results_eq(format($$select status from jq.job_history where id in (%L, %L)$$, :'ready', :'scheduled'),
                  $$values ('cancelled'::text), ('cancelled')$$, 'the pending ones are in history as cancelled');
select results_eq(format($$select status, cancel_requested, locked_by from jq.jobs where id = %L$$, :'running'),
                  $$values ('processing'::text, true, 'w1'::text)$$, 'the running one keeps its lease, cancel requested');
select results_eq(format($$select state from jq.jq_heartbeat(array[%L]::uuid[], 'w1')$$, :'running'),
                  $$values ('cancel_requested'::text)$$, 'and its worker learns it from the heartbeat');
select is(jq.jq_jobs_cancel('{"type": "cn.a"}'), 0, 'again: nothing left to change');
select is((select status from jq.jq_status(:'other')), 'queued', 'another type is untouched');
select results_eq($$select rows from jq.audit_log where action = 'jobs_cancel' order by id$$,
                  $$values (3::bigint), (0)$$, 'each call is audited with its count');

select * from finish();
rollback;
