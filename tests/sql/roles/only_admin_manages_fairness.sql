-- The fairness administration (issue #8) is jq_admin's: jq_producer and
-- jq_worker may not set or drop tenant policies or key limits, switch a
-- queue between fair and plain, or list tenants (42501), and their refused
-- calls change nothing. jq_admin may do all of it.
begin;
select plan(19);

select count(*) from jq.jq_tenant_policy_set('roles_q', 'acme', 2, 5) \gset
select count(*) from jq.jq_key_limit_set('sync', 3) \gset

set local role jq_producer;
select throws_ok($$select * from jq.jq_tenant_policy_set('roles_q', 'acme', 9, null)$$, '42501', null,
                 'jq_producer cannot set a tenant policy');
select throws_ok($$select jq.jq_tenant_policy_delete('roles_q', 'acme')$$, '42501', null,
                 'jq_producer cannot delete a tenant policy');
select throws_ok('select * from jq.jq_tenant_policies()', '42501', null, 'jq_producer cannot list tenant policies');
select throws_ok($$select * from jq.jq_key_limit_set('sync', 9)$$, '42501', null, 'jq_producer cannot set a key limit');
select throws_ok($$select jq.jq_key_limit_delete('sync')$$, '42501', null, 'jq_producer cannot delete a key limit');
select throws_ok($$select jq.jq_queue_set_fair('roles_q', false)$$, '42501', null,
                 'jq_producer cannot make a queue plain');
select throws_ok('select * from jq.jq_tenants()', '42501', null, 'jq_producer cannot list tenants');
select throws_ok('select * from jq.tenant_policies', '42501', null, 'jq_producer cannot read jq.tenant_policies');
reset role;

set local role jq_worker;
select throws_ok($$select * from jq.jq_tenant_policy_set('roles_q', 'acme', 9, null)$$, '42501', null,
                 'jq_worker cannot set a tenant policy');
select throws_ok($$select * from jq.jq_key_limit_set('sync', 9)$$, '42501', null, 'jq_worker cannot set a key limit');
select throws_ok($$select jq.jq_queue_set_fair('roles_q', false)$$, '42501', null,
                 'jq_worker cannot make a queue plain');
select throws_ok('select * from jq.jq_tenants()', '42501', null, 'jq_worker cannot list tenants');
select throws_ok('select * from jq.fair_lanes', '42501', null, 'jq_worker cannot read jq.fair_lanes');
reset role;

select results_eq('select queue, tenant, weight, max_running from jq.tenant_policies',
                  $$values ('roles_q'::text, 'acme'::text, 2, 5)$$, 'the refused calls left the tenant policy as it was');
select results_eq('select type, max_running from jq.key_limits', $$values ('sync'::text, 3)$$,
                  'and the key limit');
select is_empty('select * from jq.queue_settings', 'and no queue was made plain');

set local role jq_admin;
select results_eq($$select * from jq.jq_tenant_policy_set('roles_q', 'acme', 9, null)$$,
                  $$values ('roles_q'::text, 'acme'::text, 9, null::integer)$$, 'jq_admin can set a tenant policy');
select is(jq.jq_queue_set_fair('roles_q', false), false, 'jq_admin can make a queue plain');
select is(jq.jq_key_limit_delete('sync'), true, 'jq_admin can delete a key limit');
reset role;

select * from finish();
rollback;
