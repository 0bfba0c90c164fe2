-- One claim hands out its slots in rounds: a tenant that runs out of ready
-- jobs before its share is filled leaves its slots to the others in the same
-- claim (the claim fills up while jobs are ready), and each tenant's lane is
-- charged with exactly the jobs it was given; a tenant that waited keeps
-- its place (its lane is written at the level it waited at).
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 2, 'refill_q')) \gset
select cardinality(jq_test.enqueue_tenant('B', 20, 'refill_q')) \gset
select cardinality(jq_test.enqueue_tenant('C', 20, 'refill_q')) \gset
-- D's jobs are of another type: a claim for noop jobs finds none of D's.
select cardinality(jq_test.enqueue_tenant('D', 20, 'refill_q', 0, 'other')) \gset

create temp table claimed as select * from jq.jq_claim('refill_q', 'w1', 12, '5 minutes', array['noop']);
select is((select count(*)::int from claimed), 12, 'a claim of 12 is filled');
select results_eq($$select tenant, count(*)::int from claimed group by 1 order by 1$$,
                  $$values ('A'::text, 2), ('B', 5), ('C', 5)$$,
                  'A''s 2 jobs; the slots A and D could not use go to B and C evenly');
select results_eq($$select tenant, served::int from jq.fair_lanes where queue = 'refill_q' and served > 0 order by 1$$,
                  $$values ('A'::text, 2), ('B', 5), ('C', 5)$$,
                  'each lane is charged with the jobs its tenant was given');
select is((select count(*)::int from jq.jobs where queue = 'refill_q' and tenant = 'D' and status = 'pending'), 20,
          'D''s jobs stay pending');
select results_eq($$select tenant, count(*)::int from jq.jq_claim('refill_q', 'w1', 12) group by 1 order by 1$$,
                  $$values ('B'::text, 3), ('C', 2), ('D', 7)$$,
                  'the next claim, any type: D, whose lane kept the level it waited at (0), gets 5 first, then all three take turns');

select * from finish();
rollback;
