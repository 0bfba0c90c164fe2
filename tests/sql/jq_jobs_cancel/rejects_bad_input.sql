-- Bad arguments: 22023, and nothing is cancelled or audited.
begin;
select plan(5);

select (jq.jq_enqueue('cbad.a', '{}', 'cbad_q')).job_id as id \gset
select throws_ok($$select jq.jq_jobs_cancel()$$, '22023', 'pass exactly one of filter and ids', 'neither filter nor ids');
select throws_ok($$select jq.jq_jobs_cancel('{"status": "sleeping"}')$$, '22023',
                 'filter key status: ''sleeping'' is not a job status', 'a bad status');
select throws_ok($$select jq.jq_jobs_cancel('{}', p_limit => null)$$, '22023', 'limit null is out of range', 'a null limit');
select is((select status from jq.jq_status(:'id')), 'queued', 'the job is still queued');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
