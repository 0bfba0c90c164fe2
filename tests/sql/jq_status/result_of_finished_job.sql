-- jq_status's result column: what the handler returned, once the job
-- succeeded; null while it waits or runs, when it failed, was cancelled or
-- is dead, and when its handler returned nothing.
begin;
select plan(6);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'report.make', 'status_result') as done \gset
select jq_test.enqueue_and_claim('w1', 'report.make', 'status_result') as running \gset
select jq_test.enqueue_and_claim('w1', 'report.make', 'status_result') as nothing \gset
select jq_test.enqueue_and_claim('w1', 'report.make', 'status_result', 1) as dead \gset
select count(*) from jq.jq_complete(array[:'done', :'nothing']::uuid[], 'w1',
                                    array['{"rows": 120, "url": "s3://r/120.csv"}', null]::jsonb[]) \gset
select count(*) from jq.jq_fail(:'dead'::uuid, 'w1', 'boom') \gset
select job_id as queued from jq.jq_enqueue('report.make', '{}', 'status_result') \gset

select results_eq(format('select status, result from jq.jq_status(%L)', :'done'),
                  $$values ('succeeded'::text, '{"rows": 120, "url": "s3://r/120.csv"}'::jsonb)$$,
                  'a succeeded job shows its result');
select is((select result from jq.jq_status(:'nothing')), null, 'a handler that returned nothing: null');
select results_eq(format('select status, result from jq.jq_status(%L)', :'running'),
                  $$values ('running'::text, null::jsonb)$$, 'a running job has no result');
select results_eq(format('select status, result from jq.jq_status(%L)', :'queued'),
                  $$values ('queued'::text, null::jsonb)$$, 'nor a queued one');
select results_eq(format('select status, result from jq.jq_status(%L)', :'dead'),
                  $$values ('dead'::text, null::jsonb)$$, 'nor a dead one');
select jq.jq_cancel(:'queued') as cancel \gset
select results_eq(format('select status, result from jq.jq_status(%L)', :'queued'),
                  $$values ('cancelled'::text, null::jsonb)$$, 'a cancelled job has none');

select * from finish();
rollback;
