-- jq_fail with discard = true dead-letters the job at once, attempts left or not.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_discard', 25) as job \gset

select results_eq(format($$select * from jq.jq_fail(%L, 'w1', 'payload is invalid', null, true)$$, :'job'),
                  $$values ('dead'::text, null::timestamptz)$$, 'discard: dead on attempt 1 of 25');
select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'the job left jq.jobs');
select results_eq($$select attempts, last_error from jq.dead_jobs where id = $$ || quote_literal(:'job'),
                  $$values (1::smallint, 'payload is invalid'::text)$$, 'it is dead after one attempt, with the error');

select jq_test.enqueue_and_claim('w1', 'noop', 'fail_discard', 25) as job2 \gset
select is((select status from jq.jq_fail(:'job2'::uuid, 'w1', 'x', null, false)), 'failed_retrying',
          'discard = false retries as usual');

select * from finish();
rollback;
