-- An explicit retry_in replaces the backoff policy.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_retry_in', 5) as job \gset

select results_eq(format($$select * from jq.jq_fail(%L, 'w1', 'rate limited', '10 minutes')$$, :'job'),
                  $$values ('failed_retrying'::text, '2030-01-01 12:10Z'::timestamptz)$$,
                  'retry_in 10 minutes: next attempt exactly 10 minutes ahead');
select is((select run_at from jq.jobs where id = :'job'), '2030-01-01 12:10Z'::timestamptz, 'run_at follows');

select jq_test.set_now('2030-01-01 12:10Z') \gset
select count(*) from jq.jq_claim('fail_retry_in', 'w1') \gset
select results_eq(format($$select * from jq.jq_fail(%L, 'w1', 'rate limited', '3 days')$$, :'job'),
                  $$values ('failed_retrying'::text, '2030-01-04 12:10Z'::timestamptz)$$,
                  'retry_in may be longer than the policy''s cap');
select is((select attempts from jq.jobs where id = :'job'), 2::smallint, 'attempts still counts');

select * from finish();
rollback;
