-- jq_jobs lists jobs wherever they are, each with the status word jq_status
-- gives it: live (queued, scheduled, failed_retrying, running), dead, and
-- history (succeeded, cancelled); newest created first.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select (jq.jq_enqueue('list.a', '{}', 'list_q')).job_id as queued \gset
select jq_test.advance('1 second') \gset
select (jq.jq_enqueue('list.a', '{}', 'list_q', 0, '2030-01-15 09:00Z')).job_id as scheduled \gset
select jq_test.advance('1 second') \gset
select jq_test.enqueue_and_claim('w1', 'list.b', 'list_q') as running \gset
select jq_test.advance('1 second') \gset
select jq_test.enqueue_and_claim('w1', 'list.b', 'list_q', 5) as retrying \gset
select count(*) from jq.jq_fail(:'retrying', 'w1', 'HTTP 503', '1 hour') \gset
select jq_test.advance('1 second') \gset
select jq_test.bury('list.c', 'boom', 'list_q') as dead \gset
select jq_test.advance('1 second') \gset
select jq_test.enqueue_and_claim('w1', 'list.d', 'list_q') as succeeded \gset
select count(*) from jq.jq_complete(array[:'succeeded'::uuid], 'w1') \gset
select jq_test.advance('1 second') \gset
select (jq.jq_enqueue('list.d', '{}', 'list_q')).job_id as cancelled \gset
select jq.jq_cancel(:'cancelled') \gset

select results_eq(
    $$select job_id, status from jq.jq_jobs('{"queue": "list_q"}')$$,
    format($$values (%L::uuid, 'cancelled'::text), (%L, 'succeeded'), (%L, 'dead'), (%L, 'failed_retrying'),
                    (%L, 'running'), (%L, 'scheduled'), (%L, 'queued')$$,
           :'cancelled', :'succeeded', :'dead', :'retrying', :'running', :'scheduled', :'queued'),
    'every job of the queue, newest first, in the words of jq_status');
select is_empty(
    $$select 1 from jq.jq_jobs('{"queue": "list_q"}') l cross join lateral jq.jq_status(l.job_id) s
       where s.status <> l.status$$,
    'each status is the one jq_status reports');
select results_eq(
    $$select job_id, finished_at is not null, last_error from jq.jq_jobs('{"queue": "list_q", "status": ["dead", "failed_retrying"]}')$$,
    format($$values (%L::uuid, true, 'boom'::text), (%L, false, 'HTTP 503')$$, :'dead', :'retrying'),
    'dead jobs carry their failure time as finished_at, and the last error shows');

select * from finish();
rollback;
