-- jq_tenant_policies() lists every policy row (queue, tenant, weight,
-- max_running, updated_at), ordered by queue then tenant; the no-tenant row
-- has tenant null (and sorts first in its queue), '*' rows are listed as '*'.
begin;
select plan(4);

select is_empty('select * from jq.jq_tenant_policies()', 'no policy: no rows');

select count(*) from jq.jq_tenant_policy_set('billing', 'zeta', 2, null) \gset
select count(*) from jq.jq_tenant_policy_set('billing', 'acme', null, 5) \gset
select count(*) from jq.jq_tenant_policy_set('billing', null, 4, 1) \gset
select count(*) from jq.jq_tenant_policy_set('*', '*', null, 100) \gset
select count(*) from jq.jq_tenant_policy_set('alpha', '*', 7, null) \gset

select results_eq($$select queue, tenant, weight, max_running from jq.jq_tenant_policies()$$,
                  $$values ('*'::text, '*'::text, null::integer, 100),
                           ('alpha', '*', 7, null),
                           ('billing', null, 4, 1),
                           ('billing', 'acme', null, 5),
                           ('billing', 'zeta', 2, null)$$,
                  'every row, by queue then tenant, the no-tenant row first with tenant null');
select is((select count(*)::int from jq.jq_tenant_policies() where updated_at = now()), 5,
          'updated_at is when each row was set');
select is((select count(*)::int from jq.jq_tenant_policies() p join jq.tenant_policies t
             on t.queue = p.queue and t.tenant = coalesce(p.tenant, '')), 5, 'it lists exactly the table''s rows');

select * from finish();
rollback;
