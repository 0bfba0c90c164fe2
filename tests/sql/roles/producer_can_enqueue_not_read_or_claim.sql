-- As jq_producer: enqueue, look a job up and cancel it; but not read the
-- tables, claim, or touch dead letters.
begin;
select plan(15);

set local role jq_producer;

select job_id as id from jq.jq_enqueue('email.send', '{"to": "a@example.com"}', 'roles_q') \gset
select is((select count(*)::int from jq.jq_enqueue_many('[{"type": "email.send", "queue": "roles_q"}]')), 1,
          'jq_producer can enqueue many');
select is((select status from jq.jq_status(:'id')), 'queued', 'jq_producer can enqueue and read the status');
select is(jq.jq_cancel(:'id'), 'cancelled', 'jq_producer can cancel');
select matches(jq.jq_version(), '^\d+\.\d+\.\d+$', 'jq_producer can read the version');

select throws_ok('select * from jq.jobs', '42501', null, 'jq_producer cannot read jq.jobs');
select throws_ok($$insert into jq.jobs (id, type, run_at, max_attempts, created_at)
                   values (gen_random_uuid(), 't', now(), 1, now())$$, '42501', null,
                 'jq_producer cannot insert into jq.jobs directly');
select throws_ok('select * from jq.dead_jobs', '42501', null, 'jq_producer cannot read jq.dead_jobs');
select throws_ok('select * from jq.job_history', '42501', null, 'jq_producer cannot read jq.job_history');
select throws_ok('select * from jq.idempotency_keys', '42501', null, 'jq_producer cannot read jq.idempotency_keys');
select throws_ok($$select * from jq.jq_claim('roles_q', 'w1')$$, '42501', null, 'jq_producer cannot claim');
select throws_ok($$select * from jq.jq_complete(array[gen_random_uuid()], 'w1')$$, '42501', null,
                 'jq_producer cannot complete');
select throws_ok('select jq.jq_retry_dead()', '42501', null, 'jq_producer cannot requeue dead jobs');
select throws_ok('select * from jq.jq_dead_groups()', '42501', null, 'jq_producer cannot list dead groups');
select throws_ok('select jq.jq_maintain()', '42501', null, 'jq_producer cannot run maintenance');
select throws_ok('select jq._now()', '42501', null, 'jq_producer cannot call internal helpers');

reset role;
select * from finish();
rollback;
