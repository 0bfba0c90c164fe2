-- Bad arguments: 22023, and nothing is discarded or audited.
begin;
select plan(5);

select (jq.jq_enqueue('dbad.a', '{}', 'dbad_q')).job_id as id \gset
select throws_ok(format($$select jq.jq_jobs_discard('{}', array[%L]::uuid[])$$, :'id'), '22023',
                 'pass exactly one of filter and ids', 'both filter and ids');
select throws_ok($$select jq.jq_jobs_discard('{"payload": "x"}')$$, '22023',
                 'filter key payload must be a JSON object (matched with @>)', 'a payload that is not an object');
select throws_ok($$select jq.jq_jobs_discard('{}', p_limit => 20000)$$, '22023', 'limit 20000 is out of range', 'a limit too large');
select is((select status from jq.jq_status(:'id')), 'queued', 'the job is still queued');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
