-- A paused queue gives nothing from the next claim on, fair (tenants) or
-- plain; jobs already running finish; enqueue still works; other queues
-- are untouched. After jq_queue_resume claims take its jobs again.
begin;
select plan(9);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(*) from jq_test.enqueue_tenant('acme', 3, 'pause_fair') \gset
select count(*) from jq_test.enqueue_tenant('globex', 3, 'pause_fair') \gset
select count(*) from jq_test.enqueue_ready(3, 'noop', 'pause_plain') \gset
select jq.jq_queue_set_fair('pause_plain', false) \gset
select count(*) from jq_test.enqueue_ready(2, 'noop', 'pause_other') \gset
select id as running from jq.jq_claim('pause_fair', 'w1', 1) \gset

select is(jq.jq_queue_pause('pause_fair'), true, 'pausing a queue answers true');
select is(jq.jq_queue_pause('pause_plain'), true, 'and another');
select is_empty($$select * from jq.jq_claim('pause_fair', 'w2', 10)$$, 'a paused fair queue with tenants gives nothing');
select is_empty($$select * from jq.jq_claim('pause_plain', 'w2', 10)$$, 'a paused plain queue gives nothing');
select is((select count(*)::int from jq.jq_claim('pause_other', 'w2', 10)), 2, 'another queue is claimed as before');
select is((select count(*)::int from jq.jq_complete(array[:'running'::uuid], 'w1')), 1,
          'a job running when the queue was paused completes');
select isnt((jq.jq_enqueue('noop', '{}', 'pause_fair')).job_id, null, 'enqueue into a paused queue works');

select is(jq.jq_queue_resume('pause_fair'), true, 'resuming answers true');
select is((select count(*)::int from jq.jq_claim('pause_fair', 'w2', 10)), 6, 'after the resume every job of it is claimable');

select * from finish();
rollback;
