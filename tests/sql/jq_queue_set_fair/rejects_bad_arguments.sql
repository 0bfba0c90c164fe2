-- jq_queue_set_fair: a null fair raises 22004, a bad queue 22004 (null),
-- 22001 (too long) or 22023 (malformed, or the wildcard '*', which this
-- function does not take); nothing changes.
begin;
select plan(8);

select jq.jq_queue_set_fair('billing', false) \gset

select throws_ok($$select jq.jq_queue_set_fair('billing', null)$$, '22004', null, 'a null fair raises 22004');
select throws_like($$select jq.jq_queue_set_fair('billing', null)$$, '%fair%', 'the message names fair');
select throws_ok($$select jq.jq_queue_set_fair('*', true)$$, '22023', null, 'queue * is not allowed: 22023');
select throws_ok($$select jq.jq_queue_set_fair('bad queue', true)$$, '22023', null, 'a queue with a space raises 22023');
select throws_ok($$select jq.jq_queue_set_fair('', true)$$, '22023', null, 'an empty queue raises 22023');
select throws_ok($$select jq.jq_queue_set_fair(repeat('q', 65), true)$$, '22001', null,
                 'a queue of 65 characters raises 22001');
select throws_ok($$select jq.jq_queue_set_fair(null, true)$$, '22004', null, 'a null queue raises 22004');

select results_eq('select queue, fair from jq.queue_settings', $$values ('billing'::text, false)$$,
                  'no rejected call changed the setting or added one');

select * from finish();
rollback;
