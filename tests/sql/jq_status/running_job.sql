-- A leased job is 'running', counting the attempt in progress.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'status_q', 3) as id \gset

select results_eq(
    format('select status, attempts, max_attempts, next_attempt_at, finished_at, cancel_requested
              from jq.jq_status(%L)', :'id'),
    $$values ('running'::text, 1::smallint, 3::smallint, null::timestamptz, null::timestamptz, false)$$,
    'a claimed job is running, attempt 1 of 3');

-- The lease ran out but nobody reaped it yet: still reported as running.
select jq_test.advance('10 minutes') \gset
select is((select status from jq.jq_status(:'id')), 'running', 'an expired lease not yet reaped still reads running');

select * from finish();
rollback;
