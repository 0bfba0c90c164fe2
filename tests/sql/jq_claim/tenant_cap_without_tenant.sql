-- A cap on the jobs without a tenant (jq_tenant_policy_set(queue, null, null,
-- n)) holds like a named tenant's: its running jobs are counted across
-- claims, in fair and in plain queues. A named tenant with ready jobs at two
-- priorities has one cap for both.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('nocap_q', null, null, 2) \gset
select count(*) from jq.jq_tenant_policy_set('nocap_q', 'A', null, 3) \gset
select cardinality(jq_test.enqueue_tenant(null, 5, 'nocap_q')) \gset
select cardinality(jq_test.enqueue_tenant('A', 2, 'nocap_q', 5)) \gset
select cardinality(jq_test.enqueue_tenant('A', 4, 'nocap_q')) \gset
select cardinality(jq_test.enqueue_tenant('B', 10, 'nocap_q')) \gset

select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('nocap_q', 'w1', 12) group by 1 order by 1$$,
                  $$values ('-'::text, 2), ('A', 3), ('B', 7)$$,
                  'a claim of 12: 2 without a tenant (their cap), 3 of A over both priorities (its cap), B the rest');
select is((select count(*)::int from jq.jobs where queue = 'nocap_q' and tenant = 'A' and priority = 5
              and status = 'processing'), 2, 'A''s two priority-5 jobs are among them');
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('nocap_q', 'w1', 12) group by 1 order by 1$$,
                  $$values ('B'::text, 3)$$,
                  'the next claim: none without a tenant (2 run already), none of A (3 run), B''s last 3');

select count(*) from jq.jq_complete((select array_agg(id) from (select id from jq.jobs where queue = 'nocap_q'
                                     and tenant is null and status = 'processing' limit 1) s), 'w1') \gset
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('nocap_q', 'w1', 12) group by 1$$,
                  $$values ('-'::text, 1)$$, 'one job without a tenant finished: exactly one more of them is claimed');

-- The same in a plain queue.
select jq.jq_queue_set_fair('nocap_plain', false) \gset
select count(*) from jq.jq_tenant_policy_set('nocap_plain', null, null, 1) \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'nocap_plain')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'nocap_plain')) \gset
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('nocap_plain', 'w1', 4) group by 1 order by 1$$,
                  $$values ('-'::text, 1), ('B', 3)$$,
                  'plain: the oldest jobs first, but only 1 without a tenant (its cap); B fills the claim');
select is((select count(*)::int from jq.jq_claim('nocap_plain', 'w1', 4)), 0,
          'plain: nothing more while the one without a tenant runs');
select is((select count(*)::int from jq.jobs where queue = 'nocap_plain' and tenant is null and status = 'pending'), 2,
          'their other 2 jobs stay pending');

select * from finish();
rollback;
