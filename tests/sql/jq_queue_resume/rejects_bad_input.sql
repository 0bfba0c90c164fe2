-- Bad queue or type is refused (22004, 22023) and nothing is resumed or audited.
begin;
select plan(4);

select jq.jq_queue_pause('bad_res') \gset
select throws_ok($$select jq.jq_queue_resume('bad queue')$$, '22023', 'queue ''bad queue'' is not a valid queue name', 'a malformed queue');
select throws_ok($$select jq.jq_queue_resume('bad_res', '')$$, '22023', 'type must not be empty', 'an empty type');
select is((select count(*)::int from jq.queue_pauses where queue = 'bad_res'), 1, 'the pause is still there');
select is((select count(*)::int from jq.audit_log where action = 'queue_resume'), 0, 'nothing was audited');

select * from finish();
rollback;
