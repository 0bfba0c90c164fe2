-- A job pending after a failed attempt is 'failed_retrying', with its
-- next_attempt_at and last_error, until a worker claims it again.
begin;
select plan(5);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'sync.crm', 'status_q', 5) as id \gset
select status as s from jq.jq_fail(:'id', 'w1', 'HTTP 503 from upstream', '90 seconds') \gset

select results_eq(
    format('select status, attempts, max_attempts, next_attempt_at, last_error, finished_at
              from jq.jq_status(%L)', :'id'),
    $$values ('failed_retrying'::text, 1::smallint, 5::smallint, '2030-01-15 08:01:30Z'::timestamptz,
              'HTTP 503 from upstream'::text, null::timestamptz)$$,
    'after one failure: failed_retrying, next attempt in 90 s, with the error');

select jq_test.advance('2 minutes') \gset
select is((select status from jq.jq_status(:'id')), 'failed_retrying',
          'still failed_retrying once the retry is due but not yet claimed');

select is((select count(*)::int from jq.jq_claim('status_q', 'w2', 1)), 1, 'a worker claims the retry');
select results_eq(
    format('select status, attempts, next_attempt_at from jq.jq_status(%L)', :'id'),
    $$values ('running'::text, 2::smallint, null::timestamptz)$$,
    'claimed again it is running its second attempt');
select is((select last_error from jq.jq_status(:'id')), 'HTTP 503 from upstream',
          'the previous error stays visible while it runs');

select * from finish();
rollback;
