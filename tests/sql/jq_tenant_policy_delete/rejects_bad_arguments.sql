-- jq_tenant_policy_delete: a bad queue raises its SQLSTATE (22004 null,
-- 22001 too long, 22023 malformed), and so does an empty tenant (22023: null
-- is the no-tenant row, as in jq_tenant_policy_set); nothing is deleted.
begin;
select plan(7);

select count(*) from jq.jq_tenant_policy_set('billing', 'acme', 3, null) \gset

select throws_ok($$select jq.jq_tenant_policy_delete(null, 'acme')$$, '22004', null, 'a null queue raises 22004');
select throws_ok($$select jq.jq_tenant_policy_delete('bad queue', 'acme')$$, '22023', null,
                 'a queue with a space raises 22023');
select throws_ok($$select jq.jq_tenant_policy_delete('', 'acme')$$, '22023', null, 'an empty queue raises 22023');
select throws_ok($$select jq.jq_tenant_policy_delete(repeat('q', 65), 'acme')$$, '22001', null,
                 'a queue of 65 characters raises 22001');
select count(*) from jq.jq_tenant_policy_set('billing', null, 2, null) \gset
select throws_ok($$select jq.jq_tenant_policy_delete('billing', '')$$, '22023', null,
                 'an empty tenant raises 22023');
select throws_ok($$select jq.jq_tenant_policy_delete('billing', '   ')$$, '22023', null,
                 'a blank tenant raises 22023');
select is((select count(*)::int from jq.tenant_policies), 2, 'both policies are still there');

select * from finish();
rollback;
