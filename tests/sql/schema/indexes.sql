-- The indexes the functions rely on. The claim index is (queue, priority
-- desc, coalesce(tenant, ''), run_at) over pending rows that are not
-- deferred (jobs for later wait in jobs_deferred_idx until due): the claim
-- walks the (priority, tenant) groups of a queue and reads each group's
-- oldest jobs in index order, never sorting. Two partial indexes over
-- running rows let the claim count a tenant's and a concurrency key's
-- running jobs; both leave out the rows without a tenant (or key), which
-- every claim would otherwise write into them (a cap on the no-tenant jobs
-- is counted from jobs_lease_idx).
begin;
select plan(11);

select is(pg_get_indexdef('jq.jobs_claim_idx'::regclass),
          'CREATE INDEX jobs_claim_idx ON ONLY jq.jobs USING btree (queue, priority DESC, COALESCE(tenant, ''''::text), run_at) WHERE ((status = ''pending''::text) AND (NOT deferred))',
          'jobs_claim_idx: (queue, priority desc, coalesce(tenant, ''''), run_at), pending rows not deferred');
select is(pg_get_indexdef('jq.jobs_deferred_idx'::regclass),
          'CREATE INDEX jobs_deferred_idx ON ONLY jq.jobs USING btree (queue, priority DESC, run_at) WHERE ((status = ''pending''::text) AND deferred)',
          'jobs_deferred_idx: (queue, priority desc, run_at), deferred pending rows, promoted highest priority first when due');
select is(pg_get_indexdef('jq.jobs_running_tenant_idx'::regclass),
          'CREATE INDEX jobs_running_tenant_idx ON ONLY jq.jobs USING btree (queue, tenant) WHERE ((status = ''processing''::text) AND (tenant IS NOT NULL))',
          'jobs_running_tenant_idx: (queue, tenant), running rows with a tenant only, for tenant caps');
select is(pg_get_indexdef('jq.jobs_running_key_idx'::regclass),
          'CREATE INDEX jobs_running_key_idx ON ONLY jq.jobs USING btree (type, concurrency_key) WHERE ((status = ''processing''::text) AND (concurrency_key IS NOT NULL))',
          'jobs_running_key_idx: (type, concurrency_key), running rows with a key only, for key caps');
select is(pg_get_indexdef('jq.jobs_lease_idx'::regclass),
          'CREATE INDEX jobs_lease_idx ON ONLY jq.jobs USING btree (queue, locked_until) WHERE (status = ''processing''::text)',
          'jobs_lease_idx: (queue, locked_until), leased rows only, for reaping');
select has_index('jq', 'dead_jobs', 'dead_jobs_group_idx', array['type', 'error_fingerprint', 'failed_at'],
                 'dead_jobs_group_idx: (type, error_fingerprint, failed_at)');
select has_index('jq', 'dead_jobs', 'dead_jobs_failed_at_idx', array['failed_at'], 'dead_jobs_failed_at_idx: (failed_at)');
select col_is_pk('jq', 'idempotency_keys', array['queue', 'idempotency_key'],
                 'idempotency keys are unique per (queue, key)');
select has_index('jq', 'idempotency_keys', 'idempotency_keys_expires_idx', array['expires_at'],
                 'idempotency_keys_expires_idx: (expires_at), for purging');
select has_index('jq', 'job_history', 'job_history_id_idx', array['id'], 'job_history_id_idx: (id), for jq_status');

-- The claim's per-group row selection (one priority, one tenant of a queue,
-- oldest first), planned with scans other than the index made as expensive
-- as possible.
set local enable_seqscan = off;
set local enable_bitmapscan = off;
create temp table claim_plan (plan text);
do $$
declare v_plan json;
begin
    execute $q$explain (format json)
        select j.id from jq.jobs j
         where j.queue = 'q' and j.status = 'pending' and not j.deferred and j.priority = 0
           and coalesce(j.tenant, '') = 'A' and j.run_at <= now()
         order by j.run_at
         limit 10
           for update skip locked$q$ into v_plan;
    insert into claim_plan values (v_plan::text);
end $$;
select ok((select plan ~ '"Index Name": "jobs_g[0-2]_claim_idx"' and plan !~ '"Node Type": "(Incremental )?Sort"' from claim_plan),
          'the claim query reads each generation''s jobs_claim_idx in order (a Merge Append), with no sort');

select * from finish();
rollback;
