-- The claim rule (issue #8): priority first; among ready jobs of equal
-- priority, tenants take turns by weighted fair share; within a tenant, the
-- oldest run_at first. So a job of higher priority is claimed before every
-- job of lower priority, whatever its tenant has been given so far and
-- whatever the other tenants' weights.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('fair_prio', 'A', 10, null) \gset
select cardinality(jq_test.enqueue_tenant('A', 20, 'fair_prio')) \gset
select cardinality(jq_test.enqueue_tenant('B', 20, 'fair_prio')) \gset
select cardinality(jq_test.claim_tenants('fair_prio', 6)) as warmup \gset

-- By fair share A (weight 10) would get 10 slots for each of B's. Now B gets
-- priority-10 jobs and A priority-5 ones: priority decides, not the shares.
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'fair_prio', 10)) \gset
select cardinality(jq_test.enqueue_tenant('A', 2, 'fair_prio', 5)) \gset
create temp table claimed (n serial, priority smallint, tenant text);
do $$
begin
    for i in 1 .. 5 loop
        insert into claimed (priority, tenant) select c.priority, c.tenant from jq.jq_claim('fair_prio', 'w1', 1) c;
    end loop;
end
$$;
select is((select array_agg(priority order by n) from claimed), array[10, 10, 10, 5, 5]::smallint[],
          'the 3 priority-10 jobs (B) come first, then the 2 priority-5 jobs (A), before any priority-0 job');
select is((select count(*)::int from jq.jobs where queue = 'fair_prio' and priority > 0 and status = 'pending'), 0,
          'every job above priority 0 was claimed');

-- One claim of many: its rows are again the higher priorities first.
select cardinality(jq_test.enqueue_tenant('B', 4, 'fair_prio', 1)) \gset
select cardinality(jq_test.enqueue_tenant('A', 4, 'fair_prio', 1)) \gset
select results_eq($$select priority, count(*)::int from jq.jq_claim('fair_prio', 'w1', 8) group by 1$$,
                  $$values (1::smallint, 8)$$, 'a claim of 8 takes the 8 priority-1 jobs, none of priority 0');

-- A priority-5 job enqueued last, in the future, is not claimed early.
select job_id as future from jq.jq_enqueue('noop', '{}', 'fair_prio', 5, '2030-01-02 00:00Z', null, null, 'B') \gset
select is_empty($$select 1 from jq.jq_claim('fair_prio', 'w1', 10) where priority = 5$$,
                'a higher priority does not make a future job ready');

select * from finish();
rollback;
