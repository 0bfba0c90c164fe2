-- A job that used up its attempts is 'dead', found in jq.dead_jobs, with its
-- last error; finished_at is when it failed.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'sync.crm', 'status_q', 1) as id \gset
select jq_test.advance('3 seconds') as t1 \gset
select status as s from jq.jq_fail(:'id', 'w1', 'ValueError: bad payload') \gset

select is(:'s'::text, 'dead', 'the failure on the last attempt dead-lettered the job');
select results_eq(
    format('select job_id, status, attempts, max_attempts, next_attempt_at, last_error, created_at, finished_at
              from jq.jq_status(%L)', :'id'),
    format('values (%L::uuid, %L::text, 1::smallint, 1::smallint, null::timestamptz, %L::text,
                    %L::timestamptz, %L::timestamptz)',
           :'id', 'dead', 'ValueError: bad payload', :'t0', :'t1'),
    'a dead job: dead, 1 of 1 attempts, its last error, finished when it failed');

select * from finish();
rollback;
