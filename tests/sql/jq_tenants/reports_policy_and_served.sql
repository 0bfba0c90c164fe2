-- jq_tenants reports, per (queue, tenant), the policy in force (weight 1 and
-- max_running null when none applies) and served: the jobs the tenant was
-- given while tenants shared the queue (a lone tenant's claims and a plain
-- queue's claims are not counted).
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 20, 'served_q')) \gset
select cardinality(jq_test.claim_tenants('served_q', 3)) as alone \gset
select results_eq($$select tenant, weight, max_running, served from jq.jq_tenants('served_q')$$,
                  $$values ('A'::text, 1, null::integer, 0::bigint)$$,
                  'A alone: weight 1, no cap, nothing served while sharing');

select cardinality(jq_test.enqueue_tenant('B', 20, 'served_q')) \gset
select cardinality(jq_test.claim_tenants('served_q', 8)) as shared \gset
select results_eq($$select tenant, served from jq.jq_tenants('served_q')$$,
                  $$values ('A'::text, 4::bigint), ('B', 4)$$, 'then 8 claims shared with B: 4 served each');

select count(*) from jq.jq_tenant_policy_set('served_q', 'B', 3, 7) \gset
select results_eq($$select tenant, weight, max_running from jq.jq_tenants('served_q')$$,
                  $$values ('A'::text, 1, null::integer), ('B', 3, 7)$$, 'B''s policy is shown: weight 3, max_running 7');
select is((select served from jq.jq_tenants('served_q') where tenant = 'B'),
          (select served from jq.fair_lanes where queue = 'served_q' and tenant = 'B'), 'served comes from B''s fair lane');

select jq.jq_queue_set_fair('served_plain', false) \gset
select sum(cardinality(jq_test.enqueue_tenant(t, 5, 'served_plain'))) from unnest(array['A', 'B']) t \gset
select cardinality(jq_test.claim_tenants('served_plain', 6)) as plain \gset
select results_eq($$select tenant, served from jq.jq_tenants('served_plain')$$,
                  $$values ('A'::text, 0::bigint), ('B', 0)$$, 'a plain queue serves no turns: served 0');

select * from finish();
rollback;
