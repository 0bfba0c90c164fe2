-- A running job whose cancellation was requested ends cancelled when its
-- worker fails it, even on its last attempt or with discard.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_cancel', 5) as job \gset
select is(jq.jq_cancel(:'job'::uuid), 'running', 'cancellation requested while running');

select results_eq(format($$select * from jq.jq_fail(%L, 'w1', 'stopped on request')$$, :'job'),
                  $$values ('cancelled'::text, null::timestamptz)$$, 'jq_fail returns cancelled');
select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'the job left jq.jobs');
select results_eq($$select status, last_error from jq.job_history where id = $$ || quote_literal(:'job'),
                  $$values ('cancelled'::text, 'stopped on request'::text)$$, 'history records it as cancelled');
select is((select count(*)::int from jq.dead_jobs where id = :'job'), 0, 'it is not dead-lettered');
select is((select status from jq.jq_status(:'job'::uuid)), 'cancelled', 'jq_status reports cancelled');

select jq_test.enqueue_and_claim('w1', 'noop', 'fail_cancel', 1) as last \gset
select count(*) from (select jq.jq_cancel(:'last'::uuid)) c \gset
select is((select status from jq.jq_fail(:'last'::uuid, 'w1', 'x')), 'cancelled',
          'on its last attempt a cancel-requested job is cancelled, not dead');

select * from finish();
rollback;
