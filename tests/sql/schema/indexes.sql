-- The indexes the functions rely on. The claim index follows the claim's
-- ORDER BY (priority desc, run_at) within a queue and covers only pending
-- rows, so a claim reads the index in order and never sorts.
begin;
select plan(8);

select is(pg_get_indexdef('jq.jobs_claim_idx'::regclass),
          'CREATE INDEX jobs_claim_idx ON jq.jobs USING btree (queue, priority DESC, run_at) WHERE (status = ''pending''::text)',
          'jobs_claim_idx: (queue, priority desc, run_at), pending rows only');
select is(pg_get_indexdef('jq.jobs_lease_idx'::regclass),
          'CREATE INDEX jobs_lease_idx ON jq.jobs USING btree (queue, locked_until) WHERE (status = ''processing''::text)',
          'jobs_lease_idx: (queue, locked_until), leased rows only, for reaping');
select has_index('jq', 'dead_jobs', 'dead_jobs_group_idx', array['type', 'error_fingerprint', 'failed_at'],
                 'dead_jobs_group_idx: (type, error_fingerprint, failed_at)');
select has_index('jq', 'dead_jobs', 'dead_jobs_failed_at_idx', array['failed_at'], 'dead_jobs_failed_at_idx: (failed_at)');
select col_is_pk('jq', 'idempotency_keys', array['queue', 'idempotency_key'],
                 'idempotency keys are unique per (queue, key)');
select has_index('jq', 'idempotency_keys', 'idempotency_keys_expires_idx', array['expires_at'],
                 'idempotency_keys_expires_idx: (expires_at), for purging');
select has_index('jq', 'job_history', 'job_history_id_idx', array['id'], 'job_history_id_idx: (id), for jq_status');

-- The claim's row selection, planned with scans other than the index made
-- as expensive as possible.
set local enable_seqscan = off;
set local enable_bitmapscan = off;
create temp table claim_plan (plan text);
do $$
declare v_plan json;
begin
    execute $q$explain (format json)
        select j.id from jq.jobs j
         where j.queue = 'q' and j.status = 'pending' and j.run_at <= now()
         order by j.priority desc, j.run_at
         limit 10
           for update skip locked$q$ into v_plan;
    insert into claim_plan values (v_plan::text);
end $$;
select ok((select plan ~ '"Index Name": "jobs_claim_idx"' and plan !~ '"Node Type": "(Incremental )?Sort"' from claim_plan),
          'the claim query reads jobs_claim_idx in order, with no sort');

select * from finish();
rollback;
