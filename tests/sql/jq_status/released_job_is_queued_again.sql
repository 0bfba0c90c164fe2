-- A job its worker handed back unrun (jq_release, e.g. at shutdown) reads as
-- it did before the claim: queued, the attempt not counted; a job that had
-- already failed once reads failed_retrying.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'report.build', 'status_q', 3) as id \gset
select count(*) from jq.jq_release(array[:'id'::uuid], 'w1') \gset

select results_eq(
    format('select status, attempts, next_attempt_at from jq.jq_status(%L)', :'id'),
    $$values ('queued'::text, 0::smallint, null::timestamptz)$$,
    'a released job is queued again with no attempt counted');

select jq_test.enqueue_and_claim('w1', 'sync.crm', 'status_q', 3) as retried \gset
select count(*) from jq.jq_fail(:'retried', 'w1', 'HTTP 503', '0 seconds') \gset
select is((select count(*)::int from jq.jq_claim('status_q', 'w2', 1, '5 minutes', array['sync.crm'])), 1,
          'the failed job is claimed for its second attempt');
select is((select count(*)::int from jq.jq_release(array[:'retried'::uuid], 'w2')), 1, 'and released');
select results_eq(
    format('select status, attempts, last_error from jq.jq_status(%L)', :'retried'),
    $$values ('failed_retrying'::text, 1::smallint, 'HTTP 503'::text)$$,
    'a released job that had failed before reads failed_retrying with its one failed attempt');

select * from finish();
rollback;
