-- Resuming wakes the workers asleep on the queue the way an insert does: it
-- takes the queue's waiting marks (and NOTIFYs jq_<queue> at commit), so a
-- worker on LISTEN claims at once instead of at its next poll. A resume of
-- something not paused wakes nobody.
begin;
select plan(5);

select count(*) from jq_test.enqueue_ready(2, 'noop', 'wake_q') \gset
select jq.jq_queue_pause('wake_q') \gset
select jq.jq_set_waiting(array['wake_q', 'wake_other'], 'w1', true) \gset

select is(jq.jq_queue_resume('wake_q', 'mail'), false, 'resuming a type that was not paused answers false');
select is((select count(*)::int from jq.queue_waiters where queue = 'wake_q'), 1, 'and wakes nobody');
select is(jq.jq_queue_resume('wake_q'), true, 'resuming the paused queue answers true');
select is((select count(*)::int from jq.queue_waiters where queue = 'wake_q'), 0,
          'its waiting marks are taken: the worker is notified');
select is((select count(*)::int from jq.queue_waiters where queue = 'wake_other'), 1, 'other queues keep theirs');

select * from finish();
rollback;
