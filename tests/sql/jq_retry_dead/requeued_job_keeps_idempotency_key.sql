-- A requeued job is the same job: its idempotency key still leads to it, so
-- a producer retrying the enqueue gets the requeued job, not a second one.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select job_id as id from jq.jq_enqueue('invoice.send', '{}', 'dead_q', 0, null, 1, 'invoice-42') \gset
select count(*) from jq.jq_claim('dead_q', 'w1') \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'HTTP 503') \gset
select jq_test.advance('1 hour') \gset

select is(jq.jq_retry_dead('invoice.send'), 1, 'the dead job is requeued');
select results_eq(
    $$select job_id, status, duplicate from jq.jq_enqueue('invoice.send', '{}', 'dead_q', 0, null, 1, 'invoice-42')$$,
    format('values (%L::uuid, %L::text, true)', :'id', 'queued'),
    'enqueueing the same key again returns the requeued job, queued, as a duplicate');

select * from finish();
rollback;
