-- The functions a worker and a producer call for every job run their
-- statements with generic plans (plan_cache_mode = force_generic_plan in the
-- function's SET clause). Left to choose, the plan cache kept planning custom
-- plans of jq.jobs' partitions on every call (docs/design.md, Plans: with
-- the two fixes below, one job through went from 394 to 691 a second).
-- And jq._now, called by all of them, is PL/pgSQL: as a SQL function with a
-- sub-select it is not inlined, and its body was planned in every transaction.
begin;
select plan(2);

select is(
    array(select p.proname::text
            from pg_proc p
           where p.pronamespace = 'jq'::regnamespace
             and p.proname in ('jq_enqueue', 'jq_enqueue_many', 'jq_claim', 'jq_complete', 'jq_fail',
                               'jq_heartbeat', 'jq_release', 'jq_set_waiting', 'jq_worker_beat')
             and 'plan_cache_mode=force_generic_plan' = any(p.proconfig)
           order by 1),
    array['jq_claim', 'jq_complete', 'jq_enqueue', 'jq_enqueue_many', 'jq_fail', 'jq_heartbeat',
          'jq_release', 'jq_set_waiting', 'jq_worker_beat'],
    'the hot path keeps generic plans');
select is((select l.lanname::text from pg_proc p join pg_language l on l.oid = p.prolang
            where p.oid = 'jq._now()'::regprocedure),
          'plpgsql', 'jq._now keeps its plan for the session');

select * from finish();
rollback;
