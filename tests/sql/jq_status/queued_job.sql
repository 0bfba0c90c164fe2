-- A ready job never attempted is 'queued'; every contract column is filled in.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select job_id as id from jq.jq_enqueue('email.send', '{"to": "a@example.com"}', 'status_q', 3, null, 7) \gset

select results_eq(
    format('select job_id, type, queue, status, attempts, max_attempts, run_at, next_attempt_at,
                   last_error, created_at, finished_at
              from jq.jq_status(%L)', :'id'),
    format('values (%L::uuid, %L::text, %L::text, %L::text, 0::smallint, 7::smallint, %L::timestamptz,
                    null::timestamptz, null::text, %L::timestamptz, null::timestamptz)',
           :'id', 'email.send', 'status_q', 'queued', :'t0', :'t0'),
    'a ready job: queued, 0 of 7 attempts, no next attempt, no error, not finished');

select jq_test.advance('1 hour') \gset
select is((select status from jq.jq_status(:'id')), 'queued', 'it stays queued while it waits');

select * from finish();
rollback;
