-- Three failed attempts by three workers: each listed (attempt, when, which
-- worker, the error), oldest first, while the job retries and after it died.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select e.job_id as id from jq.jq_enqueue('deliver_webhook', '{}', 'hooks', 0, null, 3) e \gset
select set_config('t.id', :'id', true) \gset
select count(*) from jq.jq_claim('hooks', 'worker-a', 1) \gset
select count(*) from jq.jq_fail(:'id', 'worker-a', E'RuntimeError: HTTP 503\nTraceback: a', '0 seconds') \gset
select jq_test.advance('1 minute') \gset
select count(*) from jq.jq_claim('hooks', 'worker-b', 1) \gset
select count(*) from jq.jq_fail(:'id', 'worker-b', 'RuntimeError: HTTP 502', '0 seconds') \gset

select results_eq($$select attempt, failed_at, worker, error from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (1, '2030-01-15 08:00Z'::timestamptz, 'worker-a'::text, E'RuntimeError: HTTP 503\nTraceback: a'::text),
                           (2, '2030-01-15 08:01Z', 'worker-b', 'RuntimeError: HTTP 502')$$,
                  'a live job lists its two failed attempts');

select jq_test.advance('1 minute') \gset
select count(*) from jq.jq_claim('hooks', 'worker-c', 1) \gset
select status from jq.jq_fail(:'id', 'worker-c', 'RuntimeError: HTTP 500') \gset
select is(:'status'::text, 'dead', 'the third failure is its last');
select results_eq($$select attempt, worker from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (1, 'worker-a'::text), (2, 'worker-b'), (3, 'worker-c')$$,
                  'the dead job lists all three, the last one included');

select jq.jq_retry_dead('deliver_webhook') \gset
select is((select count(*)::int from jq.jq_job_attempts(:'id')), 3, 'a requeued dead job keeps its attempts');

select * from finish();
rollback;
