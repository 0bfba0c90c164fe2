-- jq_claim returns each job's metadata (its trace context) as the last
-- column, and the metadata moves with the job: to jq.job_history when it
-- succeeds, to jq.dead_jobs when it dies, and back to jq.jobs when a dead job
-- is retried, so a retry's worker still finds the trace it belongs to.
begin;
select plan(7);

select job_id as traced from jq.jq_enqueue('meta', '{}', 'meta_claim', p_metadata => '{"traceparent": "t1"}') \gset
select job_id as plain from jq.jq_enqueue('meta', '{}', 'meta_claim') \gset
create temp table claimed as select * from jq.jq_claim('meta_claim', 'w1', 10);
select results_eq($$select id, metadata from claimed order by metadata is null$$,
                  format($$values (%L::uuid, '{"traceparent": "t1"}'::jsonb), (%L::uuid, null::jsonb)$$,
                         :'traced', :'plain'),
                  'the claim returns the metadata of each job, null when it has none');
select is((select (array_agg(n order by ord))[cardinality(array_agg(n))]
             from unnest((select proargnames from pg_proc where oid = 'jq.jq_claim'::regproc)) with ordinality u(n, ord)),
          'metadata', 'metadata is the last column of jq_claim');

select cmp_ok(cardinality(array(select jq.jq_complete(array[:'traced'::uuid], 'w1'))), '=', 1, 'the traced job completes');
select is((select metadata from jq.job_history where id = :'traced'), '{"traceparent": "t1"}'::jsonb,
          'job_history keeps the metadata');

select job_id as doomed from jq.jq_enqueue('meta_dead', '{}', 'meta_claim', 0, null, 1,
                                           p_metadata => '{"traceparent": "t2"}') \gset
select count(*) from jq.jq_claim('meta_claim', 'w1', 1, '5 minutes', array['meta_dead']) \gset
select count(*) from jq.jq_fail(:'doomed', 'w1', 'boom') \gset
select is((select metadata from jq.dead_jobs where id = :'doomed'), '{"traceparent": "t2"}'::jsonb,
          'dead_jobs keeps the metadata');
select count(*) from jq.jq_retry_dead('meta_dead') \gset
select is((select metadata from jq.jobs where id = :'doomed'), '{"traceparent": "t2"}'::jsonb,
          'a retried dead job gets it back');

-- A suspect (orphaned twice) is claimed alone, by its own path: it returns the metadata too.
update jq.jobs set orphaned = 2 where id = :'doomed';
select is((select metadata from jq.jq_claim('meta_claim', 'w-idle', 5)), '{"traceparent": "t2"}'::jsonb,
          'a suspect''s claim returns its metadata');

select * from finish();
rollback;
