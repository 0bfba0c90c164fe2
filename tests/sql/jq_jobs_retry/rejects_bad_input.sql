-- Bad arguments are refused with 22023 and the call changes nothing (no
-- job moved, nothing audited): neither or both of filter and ids, a limit
-- outside 1..10000, a bad filter key or value.
begin;
select plan(8);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select (jq.jq_enqueue('bad.a', '{}', 'bad_q', 0, '2030-02-01T00:00:00Z')).job_id as id \gset

select throws_ok($$select jq.jq_jobs_retry()$$, '22023', 'pass exactly one of filter and ids', 'neither filter nor ids');
select throws_ok(format($$select jq.jq_jobs_retry('{}', array[%L]::uuid[])$$, :'id'), '22023',
                 'pass exactly one of filter and ids', 'both');
select throws_ok($$select jq.jq_jobs_retry('{}', p_limit => 0)$$, '22023', 'limit 0 is out of range', 'limit 0');
select throws_ok($$select jq.jq_jobs_retry('{}', p_limit => 10001)$$, '22023', 'limit 10001 is out of range', 'limit 10001');
select throws_ok($$select jq.jq_jobs_retry('{"nope": 1}')$$, '22023', 'unknown filter key nope', 'an unknown key');
select throws_ok($$select jq.jq_jobs_retry('{"error": "x"}')$$, '22023', 'unknown filter key error', 'error is for dead jobs only');
select is((select run_at from jq.jobs where id = :'id'), '2030-02-01T00:00:00Z'::timestamptz, 'the job was not touched');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
