-- Fair claiming with weights: a tenant of weight 3 gets three times the
-- share of a tenant of weight 1 (the default). With
-- jq_tenant_policy_set('*', 'gold', 3, null), 16 claims of limit 1 against
-- 'free' give 12 to gold and 4 to free, never more than 3 gold in a row;
-- one claim of 40 gives 30 / 10.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('*', 'gold', 3, null) \gset
do $$
declare
    v_queue text;
begin
    foreach v_queue in array array['fair_w1', 'fair_w40'] loop
        perform jq_test.enqueue_tenant('free', 50, v_queue);
        perform jq_test.enqueue_tenant('gold', 50, v_queue);
    end loop;
end
$$;

create temp table seq as select jq_test.claim_tenants('fair_w1', 16) as t;
select is((select count(*)::int from seq, unnest(t) x where x = 'gold'), 12, '16 claims of limit 1: 12 for gold');
select is((select count(*)::int from seq, unnest(t) x where x = 'free'), 4, 'and 4 for free');
select is((select count(*)::int from seq, unnest(t[1:8]) x where x = 'gold'), 6,
          'the share holds along the way: 6 of the first 8 for gold');

select results_eq($$select tenant, count(*)::int from jq.jq_claim('fair_w40', 'w1', 40) group by 1 order by 1$$,
                  $$values ('free'::text, 10), ('gold', 30)$$, 'one claim of 40: 30 gold, 10 free');

-- A weight for the jobs without a tenant (tenant null), in one queue only.
select count(*) from jq.jq_tenant_policy_set('fair_w_null', null, 3, null) \gset
select cardinality(jq_test.enqueue_tenant('free', 50, 'fair_w_null')) \gset
select cardinality(jq_test.enqueue_tenant(null, 50, 'fair_w_null')) \gset
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('fair_w_null', 'w1', 40) group by 1 order by 1$$,
                  $$values ('-'::text, 30), ('free', 10)$$, 'the no-tenant jobs can be weighted too (tenant null): 30 / 10');

select * from finish();
rollback;
