-- jq_stats ends with paused: true while the whole queue is paused (a type
-- pause does not count); a paused queue has its row even with no job.
begin;
select plan(3);

select count(*) from jq_test.enqueue_ready(2, 'noop', 'stp_a') \gset
select count(*) from jq_test.enqueue_ready(1, 'noop', 'stp_b') \gset
select jq.jq_queue_pause('stp_a') \gset
select jq.jq_queue_pause('stp_b', 'noop') \gset
select jq.jq_queue_pause('stp_empty') \gset
select results_eq($$select queue, ready, paused from jq.jq_stats() where queue like 'stp\_%' order by queue$$,
                  $$values ('stp_a'::text, 2::bigint, true), ('stp_b', 1, false), ('stp_empty', 0, true)$$,
                  'paused per queue; an empty paused queue shows with zero counts');
select jq.jq_queue_resume('stp_a') \gset
select jq.jq_queue_resume('stp_empty') \gset
select is((select paused from jq.jq_stats() where queue = 'stp_a'), false, 'after the resume: false');
select is_empty($$select 1 from jq.jq_stats() where queue = 'stp_empty'$$, 'and the empty queue has no row again');

select * from finish();
rollback;
