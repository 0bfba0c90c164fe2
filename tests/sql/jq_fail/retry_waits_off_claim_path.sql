-- Invariant 4: a failed job waits for its retry off the claim path: it is not
-- claimable before next_attempt_at, other jobs are claimed meanwhile, and it
-- is claimable again from next_attempt_at on.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'flaky', 'fail_wait', 5) as job \gset
select next_attempt_at as next from jq.jq_fail(:'job'::uuid, 'w1', 'timeout', '1 minute') \gset
select job_id as other from jq.jq_enqueue('steady', '{}', 'fail_wait', -10) \gset

select results_eq($$select id from jq.jq_claim('fail_wait', 'w2', 10)$$, array[:'other'::uuid],
                  'right after the failure only the other job is claimed, despite its lower priority');
select jq_test.advance('59 seconds') \gset
select is_empty($$select * from jq.jq_claim('fail_wait', 'w2', 10)$$, 'one second early: not claimable');

select jq_test.set_now(:'next') \gset
create temp table retried as select * from jq.jq_claim('fail_wait', 'w2', 10);
select results_eq($$select id from retried$$, array[:'job'::uuid], 'at next_attempt_at it is claimed again');
select is((select attempts from retried), 2::smallint, 'as attempt 2');
select is((select last_error from retried), 'timeout', 'the claim hands the worker the previous error');
select is((select status from jq.jq_status(:'job'::uuid)), 'running', 'jq_status reports running');

select * from finish();
rollback;
