-- Bad arguments: 22023, and nothing is deleted or audited.
begin;
select plan(5);

select jq_test.bury('ddb.a', 'boom', 'ddb_q') \gset
select throws_ok($$select jq.jq_dead_delete()$$, '22023', 'pass exactly one of filter and ids', 'neither filter nor ids');
select throws_ok($$select jq.jq_dead_delete('{"error": 503}')$$, '22023', 'filter key error must be a non-empty string', 'a number for error');
select throws_ok($$select jq.jq_dead_delete('{}', p_limit => 0)$$, '22023', 'limit 0 is out of range', 'limit 0');
select is((select count(*)::int from jq.dead_jobs), 1, 'the dead job is still there');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
