-- Bad queue or type: the usual ladder (22004 null, 22023 malformed or
-- blank, 22001 too long), and nothing is paused or audited.
begin;
select plan(7);

select throws_ok($$select jq.jq_queue_pause(null)$$, '22004', 'queue must not be null', 'a null queue');
select throws_ok($$select jq.jq_queue_pause('bad queue')$$, '22023', 'queue ''bad queue'' is not a valid queue name', 'a malformed queue');
select throws_ok($$select jq.jq_queue_pause('q', '  ')$$, '22023', 'type must not be empty', 'a blank type');
select throws_ok(format('select jq.jq_queue_pause(%L, %L)', 'q', repeat('t', 129)), '22001',
                 'type is 129 characters long; the limit is 128', 'a type too long');
select throws_ok($$select jq.jq_queue_resume(null)$$, '22004', 'queue must not be null', 'resume: a null queue');
select is_empty('select 1 from jq.queue_pauses', 'nothing was paused');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
