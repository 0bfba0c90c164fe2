-- jq_claim returns the job's fields, marks it processing for the worker until
-- now + lease, and counts an attempt.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select job_id as job from jq.jq_enqueue('render', '{"page": 3}', 'claim_lease', 4, '2030-01-01 11:00Z', 6,
                                        'render-3', 'acme') \gset

create temp table claimed as select * from jq.jq_claim('claim_lease', 'worker-a', 1, '90 seconds');

select results_eq(
    $$select id, queue, type, payload, priority, attempts, max_attempts, tenant, run_at, created_at, locked_until
        from claimed$$,
    format($$values (%L::uuid, 'claim_lease'::text, 'render'::text, '{"page": 3}'::jsonb, 4::smallint,
                     1::smallint, 6::smallint, 'acme'::text, '2030-01-01 11:00Z'::timestamptz,
                     '2030-01-01 12:00Z'::timestamptz, '2030-01-01 12:01:30Z'::timestamptz)$$, :'job'),
    'the claim returns the job''s fields with attempts 1 and locked_until = now + lease');

select is((select status from jq.jobs where id = :'job'), 'processing', 'the job is processing');
select is((select locked_by from jq.jobs where id = :'job'), 'worker-a', 'locked_by is the worker');
select is((select locked_until from jq.jobs where id = :'job'), '2030-01-01 12:01:30Z'::timestamptz,
          'locked_until is now + lease');
select is((select attempts from jq.jobs where id = :'job'), 1::smallint, 'attempts went from 0 to 1');
select is((select run_at from jq.jobs where id = :'job'), '2030-01-01 11:00Z'::timestamptz, 'run_at is unchanged');

-- The default lease is 5 minutes.
select job_id as job2 from jq.jq_enqueue('render', '{}', 'claim_lease') \gset
select count(*) from jq.jq_claim('claim_lease', 'worker-a') \gset
select is((select locked_until from jq.jobs where id = :'job2'), '2030-01-01 12:05Z'::timestamptz,
          'the default lease is 5 minutes');
select is((select status from jq.jq_status(:'job'::uuid)), 'running', 'jq_status reports running');

select * from finish();
rollback;
