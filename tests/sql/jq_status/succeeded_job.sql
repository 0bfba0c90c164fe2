-- A completed job is 'succeeded', found in jq.job_history, with finished_at.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'email.send', 'status_q', 3) as id \gset
select jq_test.advance('42 seconds') as t1 \gset
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset

select results_eq(
    format('select job_id, type, queue, status, attempts, max_attempts, next_attempt_at, created_at, finished_at
              from jq.jq_status(%L)', :'id'),
    format('values (%L::uuid, %L::text, %L::text, %L::text, 1::smallint, 3::smallint, null::timestamptz,
                    %L::timestamptz, %L::timestamptz)',
           :'id', 'email.send', 'status_q', 'succeeded', :'t0', :'t1'),
    'a completed job: succeeded after 1 attempt, finished when it was completed');
select is((select count(*)::int from jq.jq_status(:'id')), 1, 'exactly one row');

select * from finish();
rollback;
