-- The claim index matches the claim query: partial on pending rows, ordered
-- (queue, priority desc, run_at); and the planner uses it for that query.
begin;
select plan(6);

select has_index('jq', 'jobs', 'jobs_claim_idx', 'jq.jobs has the claim index');
select matches((select indexdef from pg_indexes where schemaname = 'jq' and indexname = 'jobs_claim_idx'),
               '\(queue, priority DESC, run_at\)',
               'its columns are (queue, priority desc, run_at)');
select matches((select indexdef from pg_indexes where schemaname = 'jq' and indexname = 'jobs_claim_idx'),
               $$WHERE \(status = 'pending'::text\)$$,
               'it is partial: where status = pending');
select is((select indisvalid from pg_index where indexrelid = 'jq.jobs_claim_idx'::regclass), true,
          'the index is valid');

-- The claim query's shape (as in jq.jq_claim), planned with sequential scans off.
create function pg_temp.claim_plan() returns text language plpgsql as $$
declare
    v_line text;
    v_plan text := '';
begin
    for v_line in
        explain (costs off)
        select j.id from jq.jobs j
         where j.queue = 'default' and j.status = 'pending' and j.run_at <= now()
         order by j.priority desc, j.run_at
         limit 10
           for update skip locked
    loop
        v_plan := v_plan || v_line || E'\n';
    end loop;
    return v_plan;
end
$$;
set local enable_seqscan = off;
select matches(pg_temp.claim_plan(), 'Index Scan using jobs_claim_idx',
               'the claim query is an index scan on jobs_claim_idx');
select doesnt_match(pg_temp.claim_plan(), 'Sort',
                    'the index delivers the ORDER BY: no sort step');

select * from finish();
rollback;
