-- jq_fail with attempts left: the job goes back to pending with run_at =
-- next_attempt_at, at least one second ahead, and keeps the error.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_retry', 5) as job \gset

create temp table failed as select * from jq.jq_fail(:'job'::uuid, 'w1', 'upstream returned 503');

select is((select status from failed), 'failed_retrying', 'status is failed_retrying');
select ok((select next_attempt_at >= '2030-01-01 12:00:01Z'::timestamptz from failed),
          'the first retry waits at least one second');
select ok((select next_attempt_at <= '2030-01-01 12:00:02.5Z'::timestamptz from failed),
          'the first retry waits at most 2 s + 25 % jitter');
select results_eq($$select status, locked_by, locked_until, attempts from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('pending'::text, null::text, null::timestamptz, 1::smallint)$$,
                  'the job is pending again, unleased, with its attempt counted');
select is((select run_at from jq.jobs where id = :'job'), (select next_attempt_at from failed),
          'its run_at is next_attempt_at');
select is((select last_error from jq.jobs where id = :'job'), 'upstream returned 503', 'the error is kept');
select results_eq($$select status, next_attempt_at, last_error from jq.jq_status($$ || quote_literal(:'job') || $$)$$,
                  $$select 'failed_retrying'::text, next_attempt_at, 'upstream returned 503'::text from failed$$,
                  'jq_status reports failed_retrying with next_attempt_at and the error');

-- A blank error still leaves a message.
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_retry', 5) as job2 \gset
select is((select status from jq.jq_fail(:'job2'::uuid, 'w1', '  ')), 'failed_retrying', 'a blank error is accepted');
select isnt((select nullif(btrim(last_error), '') from jq.jobs where id = :'job2'), null,
            'and some last_error is recorded');

select * from finish();
rollback;
