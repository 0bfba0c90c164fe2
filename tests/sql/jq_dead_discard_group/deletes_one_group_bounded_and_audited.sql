-- Deletes the dead jobs of exactly one (type, fingerprint) group, within the
-- window, at most p_limit a call; other groups stay; audited; bad input refused.
begin;
select plan(7);

select jq_test.bury('dg', 'HTTP 503 for evt_10001', 'dg_q') \gset
select jq_test.bury('dg', 'HTTP 503 for evt_10002', 'dg_q') \gset
select jq_test.bury('dg', 'HTTP 503 for evt_10003', 'dg_q') \gset
select jq_test.bury('dg', 'boom', 'dg_q') \gset
select jq_test.bury('other', 'HTTP 503 for evt_10001', 'dg_q') \gset
select error as fp from jq.jq_dead_groups(p_type => 'dg') where count = 3 \gset

select is(jq.jq_dead_discard_group('dg', :'fp', p_limit => 2), 2, 'at most p_limit a call');
select is(jq.jq_dead_discard_group('dg', :'fp'), 1, 'the next call takes the rest');
select is(jq.jq_dead_discard_group('dg', :'fp'), 0, 'then none: done');
select is((select count(*)::int from jq.dead_jobs where queue = 'dg_q'), 2,
          'the other error of the type and the same error of another type stay');
select is(jq.jq_dead_discard_group('dg', 'boom', now() + interval '1 minute'), 0, 'nothing failed since a later time');
select is((select rows::int from jq.audit_log where action = 'dead_discard_group' order by id limit 1), 2,
          'audited with the rows deleted');
select throws_ok($$select jq.jq_dead_discard_group('dg', 'boom', p_limit => 0)$$, '22023',
                 'p_limit must be between 1 and 10000, got 0', 'a limit out of range is refused');

select * from finish();
rollback;
