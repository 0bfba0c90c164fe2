-- jq_enqueue with only a type: a ready job with every default applied.
begin;
select plan(14);

select jq_test.set_now('2030-01-01 12:00Z') \gset

create temp table result as select * from jq.jq_enqueue('email.send', '{"to": "a@example.com"}');

select is((select count(*)::int from result), 1, 'jq_enqueue returns exactly one row');
select is((select status from result), 'queued', 'a job with no run_at is queued');
select is((select duplicate from result), false, 'a new job is not a duplicate');
select isnt((select job_id from result), null, 'the job gets an id');

select is((select count(*)::int from jq.jobs j join result r on r.job_id = j.id), 1,
          'the job is in jq.jobs under the returned id');
select is((select j.type from jq.jobs j join result r on r.job_id = j.id), 'email.send', 'type stored');
select is((select j.payload from jq.jobs j join result r on r.job_id = j.id), '{"to": "a@example.com"}'::jsonb,
          'payload stored');
select is((select j.queue from jq.jobs j join result r on r.job_id = j.id), 'default', 'queue defaults to default');
select is((select j.priority from jq.jobs j join result r on r.job_id = j.id), 0::smallint, 'priority defaults to 0');
select is((select j.max_attempts from jq.jobs j join result r on r.job_id = j.id), 25::smallint,
          'max_attempts defaults to jq.settings.default_max_attempts (25)');
select is((select j.attempts from jq.jobs j join result r on r.job_id = j.id), 0::smallint, 'attempts start at 0');
select is((select j.status from jq.jobs j join result r on r.job_id = j.id), 'pending', 'the row is pending');
select is((select j.run_at from jq.jobs j join result r on r.job_id = j.id), '2030-01-01 12:00Z'::timestamptz,
          'run_at defaults to jq''s now');
select ok((select j.locked_by is null and j.locked_until is null and j.tenant is null
                  and j.idempotency_key is null and j.last_error is null and not j.cancel_requested
                  and j.created_at = '2030-01-01 12:00Z'::timestamptz
             from jq.jobs j join result r on r.job_id = j.id),
          'no lease, tenant, key or error; created_at is jq''s now');

select * from finish();
rollback;
