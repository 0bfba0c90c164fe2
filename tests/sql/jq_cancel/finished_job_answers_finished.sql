-- A job that already finished (succeeded, dead, cancelled) cannot be
-- cancelled: jq_cancel answers 'finished' and changes nothing.
begin;
select plan(6);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'a', 'cancel_q') as succeeded \gset
select count(*) from jq.jq_complete(array[:'succeeded'::uuid], 'w1') \gset
select jq_test.enqueue_and_claim('w1', 'b', 'cancel_q', 1) as dead \gset
select status as dead_status from jq.jq_fail(:'dead', 'w1', 'boom') \gset

select is(jq.jq_cancel(:'succeeded'), 'finished', 'a succeeded job answers finished');
select is((select status from jq.jq_status(:'succeeded')), 'succeeded', 'and stays succeeded');

select is(:'dead_status'::text, 'dead', 'the second job was dead-lettered');
select is(jq.jq_cancel(:'dead'), 'finished', 'a dead job answers finished');
select is((select count(*)::int from jq.dead_jobs where id = :'dead'), 1, 'and stays in jq.dead_jobs');
select is((select count(*)::int from jq.job_history where id = :'dead'), 0, 'with no history row added');

select * from finish();
rollback;
