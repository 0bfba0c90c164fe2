-- Pending jobs go to the dead letters as 'discarded by operator': failed_at
-- now, attempts as they were, the error fingerprinted so jq_dead_groups
-- groups them; payload, tenant and keys kept. Running jobs are left alone.
begin;
select plan(6);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select (jq.jq_enqueue('ds.a', '{"k": 1}', 'ds_q', 0, null, null, 'idem-1', 'acme')).job_id as ready \gset
select jq_test.enqueue_and_claim('w1', 'ds.a', 'ds_q', 5) as retrying \gset
select count(*) from jq.jq_fail(:'retrying', 'w1', 'HTTP 503', '1 hour') \gset
select jq_test.enqueue_and_claim('w1', 'ds.a', 'ds_q') as running \gset

select is(jq.jq_jobs_discard('{"queue": "ds_q"}'), 2, 'the two pending jobs are discarded');
select results_eq(format($$select payload, tenant, idempotency_key, attempts, last_error, failed_at from jq.dead_jobs where id = %L$$, :'ready'),
                  format($$values ('{"k": 1}'::jsonb, 'acme'::text, 'idem-1'::text, 0::smallint, 'discarded by operator'::text, %L::timestamptz)$$, :'t0'),
                  'the dead row keeps payload, tenant and key, says why and when');
select is((select attempts from jq.dead_jobs where id = :'retrying'), 1::smallint, 'attempts are kept');
select results_eq($$select error, count from jq.jq_dead_groups(p_type => 'ds.a')$$,
                  $$values (jq.error_fingerprint('discarded by operator'), 2::bigint)$$, 'they form one dead-letter group');
select is((select status from jq.jq_status(:'running')), 'running', 'the running job is left alone');
select is((select rows from jq.audit_log where action = 'jobs_discard'), 2::bigint, 'audited with the count');

select * from finish();
rollback;
