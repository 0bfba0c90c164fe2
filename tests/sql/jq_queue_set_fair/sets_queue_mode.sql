-- jq_queue_set_fair(queue, fair) records whether a queue is claimed fairly
-- (true, the default for a queue without a row) or plain FIFO (false), and
-- returns the value set; called again it replaces it. Other queues are not
-- affected.
begin;
select plan(6);

select is_empty('select * from jq.queue_settings', 'no queue has a setting at first (all fair)');
select is(jq.jq_queue_set_fair('billing', false), false, 'setting billing plain returns false');
select results_eq('select queue, fair, updated_at from jq.queue_settings',
                  $$values ('billing'::text, false, now())$$, 'jq.queue_settings holds billing: plain, set now');
select is(jq.jq_queue_set_fair('billing', true), true, 'setting it fair again returns true');
select results_eq('select queue, fair from jq.queue_settings', $$values ('billing'::text, true)$$,
                  'the row is replaced, not duplicated');
select is(jq.jq_queue_set_fair('Ab0_.:-' || repeat('q', 57), false), false, 'a queue of 64 allowed characters is accepted');

select * from finish();
rollback;
