-- The claim index matches the claim's per-group probe: partial on pending
-- rows that are not deferred (a job enqueued or retried for later joins the
-- index when a claim finds it due), ordered (queue, priority desc,
-- coalesce(tenant, ''), run_at), so the oldest ready jobs of one (priority,
-- tenant) group of a queue are read in index order; and the planner uses it
-- for that probe.
begin;
select plan(7);

select has_index('jq', 'jobs', 'jobs_claim_idx', 'jq.jobs has the claim index');
select matches((select indexdef from pg_indexes where schemaname = 'jq' and indexname = 'jobs_claim_idx'),
               $$\(queue, priority DESC, COALESCE\(tenant, ''::text\), run_at\)$$,
               'its columns are (queue, priority desc, coalesce(tenant, ''''), run_at)');
select matches((select indexdef from pg_indexes where schemaname = 'jq' and indexname = 'jobs_claim_idx'),
               $$WHERE \(\(status = 'pending'::text\) AND \(NOT deferred\)\)$$,
               'it is partial: where status = pending and not deferred');
select is((select indisvalid from pg_index where indexrelid = 'jq.jobs_claim_idx'::regclass), true,
          'the index is valid');

-- The claim's per-group probe (as in jq.jq_claim: one (priority, tenant)
-- group of a queue, oldest run_at first), planned with sequential and bitmap
-- scans off.
create function pg_temp.claim_plan() returns text language plpgsql as $$
declare
    v_line text;
    v_plan text := '';
begin
    for v_line in
        explain (costs off)
        select j.id from jq.jobs j
         where j.queue = 'default' and j.status = 'pending' and not j.deferred and j.priority = 0
           and coalesce(j.tenant, '') = 'A' and j.run_at <= now()
         order by j.run_at
         limit 10
           for update skip locked
    loop
        v_plan := v_plan || v_line || E'\n';
    end loop;
    return v_plan;
end
$$;
set local enable_seqscan = off;
set local enable_bitmapscan = off;
select matches(pg_temp.claim_plan(), 'Index Scan using jobs_g[0-2]_claim_idx',
               'the per-group probe is an index scan on each generation''s jobs_claim_idx');
select doesnt_match(pg_temp.claim_plan(), '->\s+Sort',
                    'the index delivers the ORDER BY run_at: no sort step');
select matches(pg_temp.claim_plan(), $$Index Cond: \(\(queue = 'default'::text\) AND \(priority = 0\) AND \(COALESCE\(tenant, ''::text\) = 'A'::text\) AND \(run_at <= now\(\)\)\)$$,
               'queue, priority, tenant and run_at are all index conditions');

select * from finish();
rollback;
