-- A queue set plain with jq_queue_set_fair(queue, false) is claimed by
-- priority desc, then run_at, across tenants: no turns, no fair lanes. Other
-- queues stay fair, and setting the queue fair again brings the turns back.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq.jq_queue_set_fair('plain_q', false) \gset
do $$
declare
    v_queue text;
begin
    foreach v_queue in array array['plain_q', 'plain_other'] loop
        perform jq_test.set_now('2030-01-01 12:00Z');
        perform jq_test.enqueue_tenant('A', 5, v_queue);
        perform jq_test.advance('1 minute');
        perform jq_test.enqueue_tenant('B', 5, v_queue);
        perform jq_test.enqueue_tenant('C', 1, v_queue, 3);
    end loop;
end
$$;

select is(jq_test.claim_tenants('plain_q', 8), array['C', 'A', 'A', 'A', 'A', 'A', 'B', 'B'],
          'plain: the priority-3 job first, then oldest first: all of A''s, then B''s');
select is((select count(*)::int from jq.fair_lanes where queue = 'plain_q'), 0, 'a plain queue keeps no fair lanes');
select is(jq_test.claim_tenants('plain_other', 5), array['C', 'A', 'B', 'A', 'B'],
          'another queue is still fair: after the priority-3 job, A and B take turns');

select results_eq($$select tenant, count(*)::int from jq.jq_claim('plain_q', 'w1', 2) group by 1$$,
                  $$values ('B'::text, 2)$$, 'a multi-row claim of a plain queue takes the oldest too');

-- Back to fair.
select jq.jq_queue_set_fair('plain_q', true) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'plain_q')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('A', 3, 'plain_q')) \gset
select is(jq_test.claim_tenants('plain_q', 4), array['B', 'A', 'B', 'A'],
          'set fair again, the queue takes turns (B first: its oldest job is older)');
select ok((select count(*) from jq.fair_lanes where queue = 'plain_q') > 0, 'and keeps fair lanes again');

select * from finish();
rollback;
