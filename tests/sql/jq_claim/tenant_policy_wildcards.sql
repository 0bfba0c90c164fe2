-- Tenant policies with wildcards and their precedence, field by field: a
-- tenant's own row beats tenant '*', and a queue's row beats queue '*'.
-- Tenant '*' covers every tenant without a row of its own, the jobs without
-- a tenant included; queue '*' covers every queue, each queue capped on its
-- own. A field left null in a row comes from the next row that sets it.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
-- everyone, everywhere: 1
select count(*) from jq.jq_tenant_policy_set('*', '*', null, 1) \gset
-- everyone in wild: 2
select count(*) from jq.jq_tenant_policy_set('wild', '*', null, 2) \gset
-- A in wild: 4
select count(*) from jq.jq_tenant_policy_set('wild', 'A', null, 4) \gset
-- B, everywhere: 3
select count(*) from jq.jq_tenant_policy_set('*', 'B', null, 3) \gset
-- C in wild: weight 5 only
select count(*) from jq.jq_tenant_policy_set('wild', 'C', 5, null) \gset

do $$
declare
    v_queue text;
    v_tenant text;
begin
    foreach v_queue in array array['wild', 'tame'] loop
        foreach v_tenant in array array['A', 'B', 'C', null] loop
            perform jq_test.enqueue_tenant(v_tenant, 10, v_queue);
        end loop;
    end loop;
end
$$;

select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('wild', 'w1', 100) group by 1 order by 1$$,
                  $$values ('-'::text, 2), ('A', 4), ('B', 3), ('C', 2)$$,
                  'in wild: A 4 (own row), B 3 (own row beats wild/*), C and the no-tenant jobs 2 (wild/* beats */*)');
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('tame', 'w1', 100) group by 1 order by 1$$,
                  $$values ('-'::text, 1), ('A', 1), ('B', 3), ('C', 1)$$,
                  'in tame: B 3 (*/B), everyone else 1 (*/*)');
select results_eq($$select queue, coalesce(tenant, '-'), weight, max_running from jq.jq_tenants() order by 1, 2$$,
                  $$values ('tame'::text, '-'::text, 1, 1), ('tame', 'A', 1, 1), ('tame', 'B', 1, 3), ('tame', 'C', 1, 1),
                           ('wild', '-', 1, 2), ('wild', 'A', 1, 4), ('wild', 'B', 1, 3), ('wild', 'C', 5, 2)$$,
                  'jq_tenants shows the policy in force per field: C in wild has weight 5 from its row and cap 2 from wild/*');

-- A more specific row with a weight only does not lift a cap set elsewhere.
select count(*) from jq.jq_tenant_policy_set('tame', 'A', 2, null) \gset
select is((select max_running from jq.jq_tenants('tame') where tenant = 'A'), 1,
          'tame/A with only a weight: the cap still comes from */*');
select is((select weight from jq.jq_tenants('tame') where tenant = 'A'), 2, 'and the weight from tame/A');

select * from finish();
rollback;
