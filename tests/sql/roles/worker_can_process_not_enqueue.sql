-- As jq_worker: claim, heartbeat, complete, fail, release, maintain, stats,
-- status; but not enqueue, cancel, read the tables or touch dead letters.
begin;
select plan(16);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select count(*) from jq.jq_enqueue('a', '{}', 'roles_q', 0, null, 1) \gset
select count(*) from jq.jq_enqueue('a', '{}', 'roles_q', 0, null, 1) \gset
select count(*) from jq.jq_enqueue('a', '{}', 'roles_q', 0, null, 1) \gset

set local role jq_worker;

create temp table claimed as select id from jq.jq_claim('roles_q', 'w1', 3);
select is((select count(*)::int from claimed), 3, 'jq_worker can claim');
select is((select count(*)::int from jq.jq_heartbeat((select array_agg(id) from claimed), 'w1') where state = 'ok'), 3,
          'jq_worker can heartbeat');
select is((select count(*)::int from jq.jq_complete((select array_agg(id) from (select id from claimed order by id limit 1) s), 'w1')), 1,
          'jq_worker can complete');
select is((select status from jq.jq_fail((select id from claimed order by id offset 1 limit 1), 'w1', 'boom')), 'dead',
          'jq_worker can fail');
select is((select status from jq.jq_release((select array_agg(id) from (select id from claimed order by id offset 2) s), 'w1')),
          'released', 'jq_worker can release');
select is((select jq.jq_maintain() ->> 'skipped'), 'false', 'jq_worker can run maintenance');
select is((select dead from jq.jq_stats() where queue = 'roles_q'), 1::bigint, 'jq_worker can read the stats');
select is((select status from jq.jq_status((select id from claimed order by id limit 1))), 'succeeded',
          'jq_worker can read a job status');

select throws_ok($$select * from jq.jq_enqueue('a')$$, '42501', null, 'jq_worker cannot enqueue');
select throws_ok($$select * from jq.jq_enqueue_many('[]')$$, '42501', null, 'jq_worker cannot enqueue many');
select throws_ok('select jq.jq_cancel(gen_random_uuid())', '42501', null, 'jq_worker cannot cancel');
select throws_ok('select * from jq.jobs', '42501', null, 'jq_worker cannot read jq.jobs');
select throws_ok('update jq.jobs set priority = 1', '42501', null, 'jq_worker cannot update jq.jobs directly');
select throws_ok('select * from jq.dead_jobs', '42501', null, 'jq_worker cannot read jq.dead_jobs');
select throws_ok('select jq.jq_retry_dead()', '42501', null, 'jq_worker cannot requeue dead jobs');
select throws_ok('select * from jq.jq_dead_groups()', '42501', null, 'jq_worker cannot list dead groups');

reset role;
select * from finish();
rollback;
