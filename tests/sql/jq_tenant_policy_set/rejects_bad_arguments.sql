-- jq_tenant_policy_set: bad arguments raise their SQLSTATE (22004 missing,
-- 22001 too long, 22023 anything else) and change nothing: the existing row
-- keeps its values and no row is added.
begin;
select plan(20);

select count(*) from jq.jq_tenant_policy_set('billing', 'acme', 3, 10) \gset

select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', null, null)$$, '22004', null,
                 'weight and max_running both null raise 22004');
select throws_like($$select * from jq.jq_tenant_policy_set('billing', 'acme', null, null)$$, '%weight%max_running%',
                   'the message names weight and max_running');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', 0, null)$$, '22023', null, 'weight 0 raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', -1, null)$$, '22023', null, 'weight -1 raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', 1001, null)$$, '22023', null,
                 'weight 1001 raises 22023');
select throws_like($$select * from jq.jq_tenant_policy_set('billing', 'acme', 1001, null)$$, '%weight%',
                   'the message names the weight');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', null, -1)$$, '22023', null,
                 'max_running -1 raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', 'acme', 2, 1000001)$$, '22023', null,
                 'max_running 1000001 raises 22023');
select throws_like($$select * from jq.jq_tenant_policy_set('billing', 'acme', null, -1)$$, '%max_running%',
                   'the message names max_running');
select throws_ok($$select * from jq.jq_tenant_policy_set('bad queue', 'acme', 2, null)$$, '22023', null,
                 'a queue with a space raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('', 'acme', 2, null)$$, '22023', null, 'an empty queue raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('**', 'acme', 2, null)$$, '22023', null,
                 'a queue ** (not the wildcard) raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set(repeat('q', 65), 'acme', 2, null)$$, '22001', null,
                 'a queue of 65 characters raises 22001');
select throws_ok($$select * from jq.jq_tenant_policy_set(null, 'acme', 2, null)$$, '22004', null, 'a null queue raises 22004');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', '', 2, null)$$, '22023', null,
                 'an empty tenant raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', '   ', 2, null)$$, '22023', null,
                 'a blank tenant raises 22023');
select throws_ok($$select * from jq.jq_tenant_policy_set('billing', repeat('t', 129), 2, null)$$, '22001', null,
                 'a tenant of 129 characters raises 22001');

select results_eq($$select queue, tenant, weight, max_running from jq.tenant_policies$$,
                  $$values ('billing'::text, 'acme'::text, 3, 10)$$,
                  'no rejected call changed the row or added one');

select lives_ok($$select * from jq.jq_tenant_policy_set(repeat('q', 64), repeat('t', 128), 1, null)$$,
                'a queue of 64 and a tenant of 128 characters are accepted');
select is((select count(*)::int from jq.tenant_policies), 2, 'and stored');

select * from finish();
rollback;
