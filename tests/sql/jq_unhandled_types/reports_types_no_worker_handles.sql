-- jq_unhandled_types reports, per queue, the runnable job types (ready, or
-- scheduled and due) that no live worker of that queue handles, with how many
-- wait, the age of the oldest and how many workers serve the queue. Jobs not
-- due yet, running jobs and handled types are not reported.
begin;
select plan(6);

delete from jq.workers;
select jq_test.set_now('2030-03-01 09:00Z') as t0 \gset
select count(*) from jq.jq_worker_register('uh-w1', '{"default": 4, "urgent": 1}', 'h', 1, 'x',
                                           array['send_welcome_email']) \gset
select count(*) from jq.jq_worker_register('uh-w2', '{"default": 4}', 'h', 2, 'x', array['charge_card']) \gset

select is_empty('select * from jq.jq_unhandled_types()', 'nothing waits: nothing to report');

select jq_test.enqueue_ready(2, 'send_welcome_email', 'default') \gset
select jq_test.enqueue_ready(1, 'charge_card', 'default') \gset
select is_empty('select * from jq.jq_unhandled_types()', 'jobs of handled types are not reported');

select jq_test.enqueue_ready(3, 'make_report', 'default') \gset
select jq_test.advance('40 seconds') \gset
select count(*) from jq.jq_worker_beat('uh-w1') \gset
select count(*) from jq.jq_worker_beat('uh-w2') \gset
select jq_test.enqueue_ready(1, 'send_welcome_email', 'urgent') \gset
select jq_test.enqueue_ready(1, 'charge_card', 'urgent') \gset
select results_eq(
    'select queue, type, waiting, oldest_waiting_age, workers from jq.jq_unhandled_types()',
    $$values ('default'::text, 'make_report'::text, 3::bigint, interval '40 seconds', 2),
             ('urgent', 'charge_card', 1, interval '0', 1)$$,
    'a type no worker of its queue handles, per queue: its jobs, the oldest''s age, the workers');

-- Scheduled jobs count once due; running ones never.
select count(*) from jq.jq_enqueue('late_report', '{}', 'default', 0, jq._now() + interval '1 minute') \gset
select count(*) from jq.jq_enqueue('due_report', '{}', 'default', 0, jq._now() + interval '5 seconds') \gset
select jq_test.advance('10 seconds') \gset
select count(*) from jq.jq_worker_beat('uh-w1') \gset
select count(*) from jq.jq_worker_beat('uh-w2') \gset
select results_eq(
    $$select type, waiting, oldest_waiting_age from jq.jq_unhandled_types() where queue = 'default'$$,
    $$values ('due_report'::text, 1::bigint, interval '5 seconds'), ('make_report', 3, interval '50 seconds')$$,
    'a scheduled job is reported once due (its age counted from run_at), not before');
select count(*) from jq.jq_claim('urgent', 'uh-w9', 1, '1 minute', array['charge_card']) \gset
select is_empty($$select 1 from jq.jq_unhandled_types() where queue = 'urgent'$$,
                'a running job is not waiting');

-- A queue's workers decide together: another worker that handles the type hides it.
select count(*) from jq.jq_worker_register('uh-w3', '{"default": 1}', 'h', 3, 'x', array['make_report']) \gset
select results_eq($$select type from jq.jq_unhandled_types()$$, $$values ('due_report'::text)$$,
                  'a live worker that handles the type takes it off the list');

select * from finish();
rollback;
