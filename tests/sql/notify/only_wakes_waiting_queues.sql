-- NOTIFY serialises commits on a database-wide lock, so the trigger notifies
-- a queue only while some worker has marked itself waiting on it
-- (jq_set_waiting), and a notification uses the queue's marks up. Observed, as in notifies_once_per_statement.sql, by
-- shadowing pg_notify with a recorder in schema jq; everything rolls back.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset

create table jq_test.sent (n serial, channel text);
create function jq.pg_notify(p_channel text, p_payload text) returns void
language sql as $$ insert into jq_test.sent (channel) values (p_channel) $$;

select count(*) from jq.jq_enqueue('t', '{}', 'wake_busy') \gset
select is_empty($$select * from jq_test.sent$$, 'no worker waiting: an enqueue sends no notification');

select jq.jq_set_waiting(array['wake_idle'], 'w1', true) \gset
select count(*) from jq.jq_enqueue_many($$[{"type": "t", "queue": "wake_idle"}, {"type": "t", "queue": "wake_busy"}]$$) \gset
select results_eq($$select channel from jq_test.sent$$, array['jq_wake_idle'],
                  'a batch notifies only the queue with a waiting worker');

delete from jq_test.sent;
select jq.jq_set_waiting(array['wake_idle'], 'w2', true) \gset
select count(*) from jq.jq_enqueue('t', '{}', 'wake_idle') \gset
select results_eq($$select channel from jq_test.sent$$, array['jq_wake_idle'],
                  'two waiting workers still get one notification per statement');

select is_empty($$select * from jq.queue_waiters where queue = 'wake_idle'$$,
                'the notification used both marks up');
delete from jq_test.sent;
select count(*) from jq.jq_enqueue('t', '{}', 'wake_idle') \gset
select is_empty($$select * from jq_test.sent$$, 'no notification until a worker marks itself again');

select jq.jq_set_waiting(array['wake_idle'], 'w1', true) \gset
select jq.jq_set_waiting(array['wake_idle'], 'w2', true) \gset
select jq.jq_set_waiting(array['wake_idle'], 'w1', false) \gset
select count(*) from jq.jq_enqueue('t', '{}', 'wake_idle') \gset
select results_eq($$select channel from jq_test.sent$$, array['jq_wake_idle'],
                  'while one of them still waits, the queue is notified');

delete from jq_test.sent;
select jq.jq_set_waiting(array['wake_idle'], 'w2', false) \gset
select count(*) from jq.jq_enqueue('t', '{}', 'wake_idle') \gset
select is_empty($$select * from jq_test.sent$$, 'once every worker is busy again, no notification');

select is((select count(*)::int from jq.jobs where queue in ('wake_idle', 'wake_busy')), 7,
          'every job was inserted all the same');

select * from finish();
rollback;
