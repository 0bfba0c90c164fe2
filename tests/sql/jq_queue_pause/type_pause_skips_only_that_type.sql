-- A (queue, type) pause skips only that type's jobs in the queue, in fair
-- and plain queues alike, including a suspect (a job orphaned twice, which
-- runs alone); the same type elsewhere and the other types of the queue
-- are claimed. Pausing the type and the whole queue are separate pauses.
begin;
select plan(9);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(*) from jq_test.enqueue_tenant('acme', 2, 'tp_fair', 0, 'report') \gset
select count(*) from jq_test.enqueue_tenant('globex', 2, 'tp_fair', 0, 'mail') \gset
select count(*) from jq_test.enqueue_tenant('acme', 2, 'tp_fair', 0, 'mail') \gset
select count(*) from jq_test.enqueue_ready(2, 'report', 'tp_plain') \gset
select count(*) from jq_test.enqueue_ready(2, 'mail', 'tp_plain') \gset
select jq.jq_queue_set_fair('tp_plain', false) \gset
select count(*) from jq_test.enqueue_ready(1, 'report', 'tp_else') \gset
-- A suspect of the paused type.
select (jq_test.enqueue_ready(1, 'report', 'tp_sus'))[1] as suspect \gset
select count(*) from jq_test.enqueue_ready(1, 'mail', 'tp_sus') \gset
update jq.jobs set orphaned = 2 where id = :'suspect';

select is(jq.jq_queue_pause('tp_fair', 'report'), true, 'pausing a type answers true');
select jq.jq_queue_pause('tp_plain', 'report') \gset
select jq.jq_queue_pause('tp_sus', 'report') \gset
select results_eq($$select type, count(*)::int from jq.jq_claim('tp_fair', 'w1', 10) group by type$$,
                  $$values ('mail'::text, 4)$$, 'a fair queue gives only the other type');
select results_eq($$select type, count(*)::int from jq.jq_claim('tp_plain', 'w2', 10) group by type$$,
                  $$values ('mail'::text, 2)$$, 'a plain queue too');
select results_eq($$select type from jq.jq_claim('tp_else', 'w3', 10)$$, $$values ('report'::text)$$,
                  'the type is claimed in a queue where it is not paused');
select results_eq($$select type from jq.jq_claim('tp_sus', 'w4', 10)$$, $$values ('mail'::text)$$,
                  'an idle worker does not take a suspect of a paused type; it gets the other job');
select results_eq($$select type from jq.jq_claim('tp_plain', 'w2', 10, '5 minutes', array['report'])$$,
                  $$select null::text where false$$, 'asking for the paused type only gives nothing');

select is(jq.jq_queue_pause('tp_fair'), true, 'the whole queue is a pause of its own');
select is(jq.jq_queue_resume('tp_fair', 'report'), true, 'resuming the type');
select is_empty($$select * from jq.jq_claim('tp_fair', 'w1', 10)$$, 'leaves the queue pause in place');

select * from finish();
rollback;
