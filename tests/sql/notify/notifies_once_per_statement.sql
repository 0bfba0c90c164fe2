-- What the trigger sends, observed inside one transaction: pg_notify is
-- shadowed by a recorder in schema jq, which comes before pg_catalog on the
-- search_path the jq functions run with (the trigger calls pg_notify
-- unqualified). Everything here is rolled back. The real delivery at commit
-- is tested from Python with LISTEN.
--
-- One notification per statement and per queue that received ready jobs
-- (and has a waiting worker, see only_wakes_waiting_queues.sql); none for
-- scheduled jobs; none from claim, complete, fail, heartbeat or release.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset

create table jq_test.sent (n serial, channel text);
create function jq.pg_notify(p_channel text, p_payload text) returns void
language sql as $$ insert into jq_test.sent (channel) values (p_channel) $$;

-- An idle worker waits on every queue used here; a notification uses the
-- queue's mark up, so it marks itself again before each step.
select jq.jq_set_waiting(array['notify_a', 'notify_b', 'notify_c', 'notify_d'], 'idle-worker', true) \gset

select count(*) from jq.jq_enqueue('t', '{}', 'notify_a') \gset
select results_eq($$select channel from jq_test.sent order by n$$, array['jq_notify_a'],
                  'a ready job notifies its queue''s channel once');

delete from jq_test.sent;
select count(*) from jq.jq_enqueue('t', '{}', 'notify_a', 0, '2030-01-01 13:00Z') \gset
select is_empty($$select * from jq_test.sent$$, 'a scheduled job does not notify');

delete from jq_test.sent;
select jq.jq_set_waiting(array['notify_a', 'notify_b', 'notify_c'], 'idle-worker', true) \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "t", "queue": "notify_a"}, {"type": "t", "queue": "notify_a"}, {"type": "t", "queue": "notify_a"},
    {"type": "t", "queue": "notify_b"}, {"type": "t", "queue": "notify_b"},
    {"type": "t", "queue": "notify_c", "run_at": "2030-01-02T00:00:00Z"}
]$$) \gset
select bag_eq($$select channel from jq_test.sent$$, array['jq_notify_a', 'jq_notify_b'],
              'a batch notifies once per queue with ready jobs, and not the queue with only a scheduled job');

delete from jq_test.sent;
select count(*) from jq.jq_enqueue('t', '{}', 'notify_a', 0, null, null, 'k') \gset
delete from jq_test.sent;
select jq.jq_set_waiting(array['notify_a', 'notify_b'], 'idle-worker', true) \gset
select count(*) from jq.jq_enqueue('t', '{}', 'notify_a', 0, null, null, 'k') \gset
select is_empty($$select * from jq_test.sent$$, 'a duplicate enqueue does not notify');

delete from jq_test.sent;
create temp table claimed as select * from jq.jq_claim('notify_a', 'w1', 3);
select is_empty($$select * from jq_test.sent$$, 'jq_claim does not notify');
select count(*) from jq.jq_heartbeat((select array_agg(id) from claimed), 'w1') \gset
select count(*) from jq.jq_complete((select array_agg(id) from claimed limit 1), 'w1') \gset
select is_empty($$select * from jq_test.sent$$, 'jq_heartbeat and jq_complete do not notify');

create temp table claimed2 as select * from jq.jq_claim('notify_b', 'w1', 2);
select count(*) from jq.jq_fail((select min(id::text)::uuid from claimed2), 'w1', 'x', '0 seconds') \gset
select count(*) from jq.jq_release((select array_agg(id) from claimed2), 'w1') \gset
select is_empty($$select * from jq_test.sent$$, 'jq_fail (even with an immediate retry) and jq_release do not notify');

-- The recorder really is what the trigger calls: a ready job in another queue.
select count(*) from jq.jq_enqueue('t', '{}', 'notify_d') \gset
select results_eq($$select channel from jq_test.sent$$, array['jq_notify_d'],
                  'the recorder still sees enqueues after the other calls');

select * from finish();
rollback;
