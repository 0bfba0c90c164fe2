-- jq_tenant_policy_set(queue, tenant, weight, max_running) stores a policy
-- row and returns it; called again for the same (queue, tenant) it replaces
-- both fields (a null field is then left to a less specific row). Queue '*'
-- and tenant '*' are the wildcards; tenant null is the jobs without a tenant
-- (stored as '', returned as null).
begin;
select plan(10);

select results_eq($$select * from jq.jq_tenant_policy_set('billing', 'acme', 3, 10)$$,
                  $$values ('billing'::text, 'acme'::text, 3, 10)$$, 'returns the row it stored');
select results_eq($$select queue, tenant, weight, max_running from jq.tenant_policies$$,
                  $$values ('billing'::text, 'acme'::text, 3, 10)$$, 'jq.tenant_policies holds it');
select is((select updated_at from jq.tenant_policies), now(), 'updated_at is the time of the call');

select results_eq($$select * from jq.jq_tenant_policy_set('billing', 'acme', null, 4)$$,
                  $$values ('billing'::text, 'acme'::text, null::integer, 4)$$,
                  'called again: the row is replaced, the weight now null (left to less specific rows)');
select is((select count(*)::int from jq.tenant_policies), 1, 'still one row for (billing, acme)');

select results_eq($$select * from jq.jq_tenant_policy_set('billing', null, 2, null)$$,
                  $$values ('billing'::text, null::text, 2, null::integer)$$, 'tenant null: returned as null');
select is((select tenant from jq.tenant_policies where weight = 2), '', 'and stored as the no-tenant key ''''');

select results_eq($$select * from jq.jq_tenant_policy_set('*', '*', 1, 0)$$,
                  $$values ('*'::text, '*'::text, 1, 0)$$, 'queue * and tenant *: weight 1, max_running 0 (paused)');
select results_eq($$select * from jq.jq_tenant_policy_set('q', 'big', 1000, 1000000)$$,
                  $$values ('q'::text, 'big'::text, 1000, 1000000)$$, 'the largest weight and max_running are accepted');
select is((select count(*)::int from jq.tenant_policies), 4, 'four rows in all');

select * from finish();
rollback;
