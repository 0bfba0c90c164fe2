-- jq_queue_pauses lists every pause: the whole queue (type null) before
-- its types, queues in order, with when and by whom. Listing is not audited.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select set_config('jq.actor', 'ops', true) \gset
select jq.jq_queue_pause('pl_b', 'mail') \gset
select jq.jq_queue_pause('pl_b') \gset
select jq.jq_queue_pause('pl_a', 'report') \gset
select results_eq($$select queue, type, paused_at, paused_by from jq.jq_queue_pauses() where queue like 'pl\_%'$$,
                  $$values ('pl_a'::text, 'report'::text, '2030-01-15 08:00Z'::timestamptz, 'ops'::text),
                           ('pl_b', null, '2030-01-15 08:00Z', 'ops'),
                           ('pl_b', 'mail', '2030-01-15 08:00Z', 'ops')$$,
                  'one row per pause, the whole queue first');
select is((select count(*)::int from jq.audit_log), 3, 'listing is not audited');
select is_empty($$select * from jq.jq_queue_pauses() where queue = 'pl_none'$$, 'a queue never paused has no row');

select * from finish();
rollback;
