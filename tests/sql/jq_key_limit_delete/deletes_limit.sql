-- jq_key_limit_delete(type) drops the type's key limit (back to 1 running
-- job per concurrency_key) and says whether it existed; other types keep
-- theirs. A null type raises 22004.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_key_limit_set('kld.sync', 5) \gset
select count(*) from jq.jq_key_limit_set('kld.export', 2) \gset
select cardinality(jq_test.enqueue_tenant(null, 4, 'kdel_q', 0, 'kld.sync', 'acct-1')) \gset

select is(jq.jq_key_limit_delete('kld.sync'), true, 'deleting the sync limit returns true');
select results_eq('select type, max_running from jq.key_limits', $$values ('kld.export'::text, 2)$$,
                  'only that row is gone');
select is((select count(*)::int from jq.jq_claim('kdel_q', 'w1', 10)), 1, 'sync is back to one job per key');
select is(jq.jq_key_limit_delete('kld.sync'), false, 'deleting it again returns false');
select is(jq.jq_key_limit_delete('never.set'), false, 'a type that never had a limit: false');

select throws_ok($$select jq.jq_key_limit_delete(null)$$, '22004', null, 'a null type raises 22004');
select is((select count(*)::int from jq.key_limits), 1, 'the rejected call deleted nothing');

select * from finish();
rollback;
