-- Bad arguments: 22023, and nothing is requeued or audited.
begin;
select plan(5);

select jq_test.bury('rqb.a', 'boom', 'rqb_q') \gset
select throws_ok($$select jq.jq_dead_requeue('{"errors": "x"}')$$, '22023', 'unknown filter key errors', 'an unknown key');
select throws_ok($$select jq.jq_dead_requeue('{"finished_after": "not a time"}')$$, '22023',
                 'filter key finished_after is not a timestamp: not a time', 'a malformed time');
select throws_ok($$select jq.jq_dead_requeue('{}', p_limit => -1)$$, '22023', 'limit -1 is out of range', 'a negative limit');
select is((select count(*)::int from jq.dead_jobs), 1, 'the dead job is still dead');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
