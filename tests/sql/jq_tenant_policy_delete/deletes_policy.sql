-- jq_tenant_policy_delete(queue, tenant) drops that one row and says whether
-- it existed; tenant null is the no-tenant row, '*' the wildcards. The
-- tenant then falls back to a less specific row, or weight 1 and no cap.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('del_q', 'acme', null, 0) \gset
select count(*) from jq.jq_tenant_policy_set('del_q', null, 2, null) \gset
select count(*) from jq.jq_tenant_policy_set('*', '*', null, 1) \gset
select count(*) from jq.jq_tenant_policy_set('other_q', 'acme', 5, null) \gset
select cardinality(jq_test.enqueue_tenant('acme', 3, 'del_q')) \gset

select is_empty($$select * from jq.jq_claim('del_q', 'w1', 10)$$, 'acme is paused in del_q');
select is(jq.jq_tenant_policy_delete('del_q', 'acme'), true, 'deleting (del_q, acme) returns true');
select results_eq($$select queue, tenant from jq.tenant_policies order by 1, 2$$,
                  $$values ('*'::text, '*'::text), ('del_q', ''), ('other_q', 'acme')$$,
                  'only that row is gone: the other queue''s row for acme is kept');
select is((select count(*)::int from jq.jq_claim('del_q', 'w1', 10)), 1,
          'acme falls back to */*: one job runs (cap 1)');
select is(jq.jq_tenant_policy_delete('del_q', 'acme'), false, 'deleting it again returns false');

select is(jq.jq_tenant_policy_delete('del_q', null), true, 'tenant null deletes the no-tenant row');
select is(jq.jq_tenant_policy_delete('*', '*'), true, 'the */* row can be deleted');
select is((select count(*)::int from jq.jq_claim('del_q', 'w1', 10)), 2, 'acme now has no cap: its other 2 jobs run');
select is(jq.jq_tenant_policy_delete('nowhere', 'nobody'), false, 'a row that never existed: false');

select * from finish();
rollback;
