-- Scheduled jobs and jobs waiting for a retry become ready now (run_at =
-- now, out of the deferred set, so the next claim takes them); ready and
-- running jobs are left alone and not counted. By filter or by ids; audited
-- with the filter or ids and the count; waiting workers are woken.
begin;
select plan(8);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select (jq.jq_enqueue('rt.a', '{}', 'rt_q', 0, '2030-01-16 08:00Z')).job_id as scheduled \gset
select jq_test.enqueue_and_claim('w1', 'rt.a', 'rt_q', 5) as retrying \gset
select count(*) from jq.jq_fail(:'retrying', 'w1', 'HTTP 503', '1 hour') \gset
select (jq.jq_enqueue('rt.a', '{}', 'rt_q')).job_id as ready \gset
select jq_test.enqueue_and_claim('w1', 'rt.a', 'rt_q') as running \gset
select (jq.jq_enqueue('rt.b', '{}', 'rt_q', 0, '2030-01-16 08:00Z')).job_id as other_type \gset
select jq.jq_set_waiting(array['rt_q'], 'w9', true) \gset

select is(jq.jq_jobs_retry('{"type": "rt.a"}'), 2, 'the scheduled job and the retry of the type are made ready');
select is((select count(*)::int from jq.jobs
            where id in (:'scheduled', :'retrying') and run_at = :'t0'::timestamptz and not deferred), 2,
          'run_at is now and they are in the claim index');
select is((select attempts from jq.jobs where id = :'retrying'), 1::smallint, 'the retry keeps its attempts');
select is((select status from jq.jq_status(:'other_type')), 'scheduled', 'a job of another type is untouched');
select is(jq.jq_jobs_retry(p_ids => array[:'other_type', :'ready', :'running']::uuid[]), 1,
          'by ids: only the scheduled one counts; ready and running are left alone');
select is((select count(*)::int from jq.queue_waiters where queue = 'rt_q'), 0, 'waiting workers of the queue were woken');
select is((select count(*)::int from jq.jq_claim('rt_q', 'w2', 10)), 4, 'the next claim takes all four ready jobs');
select results_eq($$select target, rows from jq.audit_log where action = 'jobs_retry' order by id$$,
                  format($$values ('{"filter": {"type": "rt.a"}, "limit": 1000}'::jsonb, 2::bigint),
                                  (jsonb_build_object('ids', array[%L, %L, %L]::uuid[], 'limit', 1000), 1)$$,
                         :'other_type', :'ready', :'running'),
                  'each call is audited with its filter or ids and the count');

select * from finish();
rollback;
