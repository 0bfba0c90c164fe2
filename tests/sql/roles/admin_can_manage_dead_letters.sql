-- As jq_admin: list and requeue dead jobs, read every table, tune
-- jq.settings, and call the producer and worker functions; but not write the
-- job tables directly.
begin;
select plan(11);

select jq_test.enqueue_and_claim('w1', 'invoice.send', 'roles_q', 1) as id \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'Timeout after 30s for inv_1') \gset

set local role jq_admin;

select is((select count(*)::int from jq.dead_jobs where id = :'id'), 1, 'jq_admin can read jq.dead_jobs');
select results_eq($$select type, error, count from jq.jq_dead_groups() where type = 'invoice.send'$$,
                  $$values ('invoice.send'::text, 'Timeout after 30s for ?'::text, 1::bigint)$$,
                  'jq_admin can list dead groups');
select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?'), 1, 'jq_admin can requeue dead jobs');
select is((select count(*)::int from jq.jobs where id = :'id'), 1, 'jq_admin can read jq.jobs');
select lives_ok('select count(*) from jq.job_history', 'jq_admin can read jq.job_history');
select lives_ok($$update jq.settings set history_retention = '14 days'$$, 'jq_admin can tune jq.settings');
select is((select count(*)::int from jq.jq_enqueue('a', '{}', 'roles_q')), 1, 'jq_admin can enqueue');
select is((select count(*)::int from jq.jq_claim('roles_q', 'w9', 10)), 2, 'jq_admin can claim');

select throws_ok('delete from jq.jobs', '42501', null, 'jq_admin cannot delete from jq.jobs directly');
select throws_ok('delete from jq.dead_jobs', '42501', null, 'jq_admin cannot delete dead jobs directly');
select throws_ok('delete from jq.settings', '42501', null, 'jq_admin cannot delete the settings row');

reset role;
select * from finish();
rollback;
