-- jq_unhandled_types reads a bounded sample of each queue, whatever its
-- backlog: the first 1,000 ready jobs in claim order (jobs_claim_idx, no
-- sort), so `waiting` is at most 1,000 for a longer queue.
begin;
select plan(3);

delete from jq.workers;
select count(*) from jq.jq_worker_register('bs-w1', '{"bs_q": 4}', 'h', 1, 'x', array['handled']) \gset
select jq_test.enqueue_ready(1200, 'make_report', 'bs_q') \gset
analyze jq.jobs;

select results_eq($$select type, waiting from jq.jq_unhandled_types()$$,
                  $$values ('make_report'::text, 1000::bigint)$$,
                  'a backlog of 1,200 unhandled jobs reads as 1,000 (the sample''s bound)');

create temp table plan_lines (line text);
do $$
declare
    v_line text;
begin
    set local enable_seqscan = off;  -- as on a large table: the planner's choice there
    for v_line in execute
        $q$explain (costs off)
           select j.type, j.run_at from jq.jobs j
            where j.queue = 'bs_q' and j.status = 'pending' and not j.deferred
            order by j.priority desc, coalesce(j.tenant, ''), j.run_at
            limit 1000$q$
    loop
        insert into plan_lines values (v_line);
    end loop;
end
$$;
select ok(exists (select 1 from plan_lines where line ~ 'Index Scan using jobs_g[0-2]_claim_idx'),
          'the ready sample is an index scan of jobs_claim_idx');
select ok(not exists (select 1 from plan_lines where line ~ '->\s+Sort'), 'in index order: no sort (a Merge Append of the generations)');

select * from finish();
rollback;
