-- Tenant caps and concurrency-key caps hold in a plain (FIFO) queue too:
-- jq_queue_set_fair(queue, false) changes the order, not the caps. The
-- capped tenant's jobs are the oldest, so FIFO alone would take them all.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq.jq_queue_set_fair('plain_caps', false) \gset
select count(*) from jq.jq_tenant_policy_set('plain_caps', 'A', null, 2) \gset
select cardinality(jq_test.enqueue_tenant('A', 5, 'plain_caps')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 2, 'plain_caps', 0, 'chp.sync', 'acct-1')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('C', 3, 'plain_caps')) \gset

select is(jq_test.claim_tenants('plain_caps', 1, 10), array['A', 'A', 'B', 'C', 'C', 'C'],
          'a claim of 10: A''s 2 oldest (its cap), one of B''s keyed jobs, then C''s');
select is_empty($$select * from jq.jq_claim('plain_caps', 'w1', 10)$$, 'nothing more while they run');
select results_eq($$select tenant, count(*)::int from jq.jobs where queue = 'plain_caps' and status = 'pending'
                     group by 1 order by 1$$,
                  $$values ('A'::text, 3), ('B', 1)$$, 'A''s 3 other jobs and B''s second keyed job stay pending');

select count(*) from jq.jq_complete((select array_agg(id) from jq.jobs where queue = 'plain_caps'
                                     and tenant in ('A', 'B') and status = 'processing'), 'w1') \gset
select is(jq_test.claim_tenants('plain_caps', 1, 10), array['A', 'A', 'B'],
          'once they finish: the next 2 of A and B''s second keyed job');
select is((select count(*)::int from jq.fair_lanes where queue = 'plain_caps'), 0, 'and the queue stays plain: no lanes');

select * from finish();
rollback;
