-- jq_tenants(queue) has one row per (queue, tenant) with live jobs: ready
-- (pending, run_at come), scheduled (pending, run_at ahead) and running
-- counts; tenant null for the jobs without a tenant; ordered by queue then
-- tenant; all queues when queue is null. Finished jobs and queues without
-- jobs give no row.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select is_empty('select * from jq.jq_tenants()', 'no jobs: no rows');

select cardinality(jq_test.enqueue_tenant('acme', 4, 'ten_q')) \gset
select cardinality(jq_test.enqueue_tenant(null, 2, 'ten_q')) \gset
select cardinality(jq_test.enqueue_tenant('zeta', 1, 'ten_other')) \gset
select count(*) from jq.jq_enqueue('noop', '{}', 'ten_q', 0, '2030-01-01 13:00Z', null, null, 'acme') \gset
select count(*) from jq.jq_enqueue('noop', '{}', 'ten_q', 0, '2030-01-02 00:00Z', null, null, 'beta') \gset
select count(*) from jq.jq_claim('ten_q', 'w1', 2) \gset

select results_eq($$select queue, tenant, ready, scheduled, running from jq.jq_tenants('ten_q')$$,
                  $$values ('ten_q'::text, null::text, 1::bigint, 0::bigint, 1::bigint),
                           ('ten_q', 'acme', 3, 1, 1),
                           ('ten_q', 'beta', 0, 1, 0)$$,
                  'ten_q: the no-tenant jobs (null, first), acme and beta with ready, scheduled and running counts');
select results_eq($$select queue, tenant from jq.jq_tenants()$$,
                  $$values ('ten_other'::text, 'zeta'::text), ('ten_q', null), ('ten_q', 'acme'), ('ten_q', 'beta')$$,
                  'without a queue: every queue, ordered by queue then tenant');
select results_eq('select * from jq.jq_tenants(null)', 'select * from jq.jq_tenants()', 'queue null is every queue');
select is_empty($$select * from jq.jq_tenants('no_such_queue')$$, 'a queue without jobs has no rows');

select count(*) from jq.jq_complete((select array_agg(id) from jq.jobs where queue = 'ten_q' and status = 'processing'), 'w1') \gset
select results_eq($$select tenant, ready, scheduled, running from jq.jq_tenants('ten_q')$$,
                  $$values (null::text, 1::bigint, 0::bigint, 0::bigint), ('acme', 3, 1, 0), ('beta', 0, 1, 0)$$,
                  'completed jobs no longer count');

select * from finish();
rollback;
