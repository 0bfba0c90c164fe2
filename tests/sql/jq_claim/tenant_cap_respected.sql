-- A tenant's max_running (jq_tenant_policy_set(queue, tenant, null, n)) caps
-- its running jobs in that queue: a claim gives it at most n minus what it
-- already runs, fills the rest of the limit with other tenants, and gives it
-- nothing more until one of its jobs finishes. Other tenants and other
-- queues are unaffected.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('cap_q', 'A', null, 2) \gset
select cardinality(jq_test.enqueue_tenant('A', 10, 'cap_q')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 10, 'cap_q')) \gset
select cardinality(jq_test.enqueue_tenant('A', 5, 'cap_other')) \gset

select results_eq($$select tenant, count(*)::int from jq.jq_claim('cap_q', 'w1', 10) group by 1 order by 1$$,
                  $$values ('A'::text, 2), ('B', 8)$$,
                  'a claim of 10: 2 of A (its cap), the other 8 slots go to B');
select results_eq($$select tenant, count(*)::int from jq.jq_claim('cap_q', 'w1', 10) group by 1 order by 1$$,
                  $$values ('B'::text, 2)$$, 'the next claim gives A nothing: it runs 2 already');
select is_empty($$select * from jq.jq_claim('cap_q', 'w1', 10)$$,
                'with only A''s jobs left, at its cap, a claim returns nothing');
select is((select count(*)::int from jq.jobs where queue = 'cap_q' and tenant = 'A' and status = 'pending'), 8,
          'A''s other 8 jobs stay pending');

select is((select count(*)::int from jq.jq_claim('cap_other', 'w1', 10)), 5, 'the cap is per queue: A runs 5 in cap_other');

select count(*) from jq.jq_complete((select array_agg(id) from (select id from jq.jobs where queue = 'cap_q'
                                     and tenant = 'A' and status = 'processing' limit 1) s), 'w1') \gset
select results_eq($$select tenant, count(*)::int from jq.jq_claim('cap_q', 'w1', 10) group by 1$$,
                  $$values ('A'::text, 1)$$, 'one of A''s jobs finished: exactly one more is claimed');

-- A tenant alone in its queue is capped as well.
select count(*) from jq.jq_tenant_policy_set('cap_alone', 'solo', null, 3) \gset
select cardinality(jq_test.enqueue_tenant('solo', 10, 'cap_alone')) \gset
select is((select count(*)::int from jq.jq_claim('cap_alone', 'w1', 10)), 3, 'a lone tenant capped at 3 gets 3 of 10');
select is((select count(*)::int from jq.jq_claim('cap_alone', 'w1', 1)), 0, 'and no more while they run');

select * from finish();
rollback;
