-- A cancelled job is 'cancelled', with finished_at.
begin;
select plan(1);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select job_id as id from jq.jq_enqueue('email.send', '{}', 'status_q') \gset
select jq_test.advance('5 seconds') as t1 \gset
select jq.jq_cancel(:'id') as c \gset

select results_eq(
    format('select status, attempts, next_attempt_at, finished_at from jq.jq_status(%L)', :'id'),
    format('values (%L::text, 0::smallint, null::timestamptz, %L::timestamptz)', 'cancelled', :'t1'),
    'a cancelled job: cancelled, never attempted, finished when cancelled');

select * from finish();
rollback;
