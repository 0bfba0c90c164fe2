-- An attempt lost with its worker (the lease expired: the worker was killed,
-- perhaps by the job) is listed like a failed one, its cause as the error:
-- blamed (the worker held nothing else), spared (it held others too: the
-- attempt is given back, so its number comes again) and the last one, after
-- which the job is dead and keeps all three.
begin;
select plan(7);

select jq_test.set_now('2030-02-01 10:00Z') \gset
select e.job_id as id from jq.jq_enqueue('render_pdf', '{}', 'lost_q', 0, null, 2) e \gset
select set_config('t.id', :'id', true) \gset

-- 1. worker-a holds it alone, and its lease expires.
select count(*) from jq.jq_claim('lost_q', 'worker-a', 1, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq._reap_expired('lost_q', jq._now()) \gset
select results_eq($$select attempt, failed_at, worker from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (1, '2030-02-01 10:02Z'::timestamptz, 'worker-a'::text)$$,
                  'the lost attempt is listed, when its lease was reaped and whose it was');
select matches((select error from jq.jq_job_attempts(:'id')),
               '^lease expired: worker "worker-a" did not finish attempt 1 by ',
               'its error says the lease expired');

-- 2. worker-b holds it beside another job: both are spared.
select e.job_id as other from jq.jq_enqueue('render_pdf', '{}', 'lost_q', 0) e \gset
select count(*) from jq.jq_claim('lost_q', 'worker-b', 2, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq._reap_expired('lost_q', jq._now()) \gset
select results_eq($$select attempt, worker, error from jq.jq_job_attempts(current_setting('t.id')::uuid) offset 1$$,
                  $$values (2, 'worker-b'::text,
                            'lease expired: worker "worker-b" was lost holding other jobs too; attempt 2 not counted'::text)$$,
                  'a spared attempt is listed, saying it was not counted');
select is((select attempts::int from jq.jobs where id = :'id'), 1, 'and it was given back');
select count(*) from jq.jq_cancel(:'other') \gset

-- 3. worker-c holds it alone on its last attempt: dead, with the whole log.
select count(*) from jq.jq_claim('lost_q', 'worker-c', 1, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq._reap_expired('lost_q', jq._now()) \gset
select is((select status from jq.jq_status(:'id')), 'dead', 'the job is dead after its last attempt');
select results_eq($$select attempt, worker, error like 'lease expired: %', error like '%not counted'
                      from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (1, 'worker-a'::text, true, false), (2, 'worker-b', true, true), (2, 'worker-c', true, false)$$,
                  'the dead job lists the three lost attempts, the spared one as not counted');
select matches((select error from jq.jq_job_attempts(:'id') offset 2),
               '^lease expired: worker "worker-c" did not finish attempt 2 of 2 by ',
               'the last one says it was the last');

select * from finish();
rollback;
