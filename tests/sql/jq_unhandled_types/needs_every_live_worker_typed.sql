-- jq_unhandled_types only speaks for queues whose live workers all said
-- their types: a worker with types null may handle anything, so its queues
-- are not reported. Gone and silent workers do not count either way, and a
-- queue no live worker serves is not reported.
begin;
select plan(4);

delete from jq.workers;
select jq_test.set_now('2030-03-01 09:00Z') as t0 \gset
select count(*) from jq.jq_worker_register('nt-w1', '{"default": 4}', 'h', 1, 'x', array['send_welcome_email']) \gset
select count(*) from jq.jq_worker_register('nt-w2', '{"default": 4}', 'h', 2, 'psql worker') \gset
select jq_test.enqueue_ready(2, 'make_report', 'default') \gset
select jq_test.enqueue_ready(2, 'make_report', 'nobody') \gset

select is_empty('select * from jq.jq_unhandled_types()',
                'a live worker with types null on the queue: nothing reported');

select jq_test.advance('20 seconds') \gset
select count(*) from jq.jq_worker_beat('nt-w1') \gset
select results_eq('select queue, type, waiting, workers from jq.jq_unhandled_types()',
                  $$values ('default'::text, 'make_report'::text, 2::bigint, 1)$$,
                  'once the untyped worker is silent (no beat for gone_after), the typed one decides');

select jq_test.advance('20 seconds') \gset
select is_empty('select * from jq.jq_unhandled_types()',
                'no live worker at all: nothing reported (a missing worker, not a missing handler)');

select count(*) from jq.jq_worker_register('nt-w1', '{"default": 4}', 'h', 1, 'x', array['send_welcome_email']) \gset
update jq.workers set gone_at = jq._now() where name = 'nt-w1';
select is_empty('select * from jq.jq_unhandled_types()', 'a worker declared gone does not count');

select * from finish();
rollback;
