-- One row per queue: ready (pending, due), scheduled (pending, future run_at,
-- including retries waiting), running, the age of the oldest ready job, and
-- the dead count; a queue with only dead jobs still has its row.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
-- stats_a: two ready jobs (the older enqueued at t0), one scheduled, one running.
select count(*) from jq.jq_enqueue('a', '{}', 'stats_a') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq.jq_enqueue('a', '{}', 'stats_a') \gset
select count(*) from jq.jq_enqueue('a', '{}', 'stats_a', 0, '2030-01-15 09:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'b', 'stats_a') \gset
-- stats_b: only a dead job.
select jq_test.enqueue_and_claim('w1', 'c', 'stats_b', 1) as dead_b \gset
select count(*) from jq.jq_fail(:'dead_b', 'w1', 'boom') \gset
-- stats_c: a job waiting for its retry, a dead job, and one ready job enqueued
-- with a run_at in the past.
select jq_test.enqueue_and_claim('w1', 'd', 'stats_c', 5) as retry_c \gset
select count(*) from jq.jq_fail(:'retry_c', 'w1', 'HTTP 503', '1 hour') \gset
select jq_test.enqueue_and_claim('w1', 'd', 'stats_c', 1) as dead_c \gset
select count(*) from jq.jq_fail(:'dead_c', 'w1', 'boom') \gset
select count(*) from jq.jq_enqueue('d', '{}', 'stats_c', 0, '2030-01-15 07:30Z') \gset
select jq_test.advance('8 minutes') as t1 \gset

select results_eq(
    $$select queue, ready, scheduled, running, oldest_ready_age, dead from jq.jq_stats()
       where queue like 'stats\_%' order by queue$$,
    $$values ('stats_a'::text, 2::bigint, 1::bigint, 1::bigint, interval '10 minutes', 0::bigint),
             ('stats_b', 0, 0, 0, null, 1),
             ('stats_c', 1, 1, 0, interval '40 minutes', 1)$$,
    'per queue: ready, scheduled, running, oldest ready age, dead');

-- At its run_at a scheduled job becomes ready; the oldest ready age keeps growing.
select jq_test.set_now('2030-01-15 09:00Z') \gset
select results_eq(
    $$select ready, scheduled, oldest_ready_age from jq.jq_stats() where queue = 'stats_a'$$,
    $$values (3::bigint, 0::bigint, interval '1 hour')$$,
    'a job whose run_at has come counts as ready, not scheduled');

select is((select ready + scheduled + running + dead from jq.jq_stats() where queue = 'stats_c')::int, 3,
          'the retry waiting counts once, the dead job once, the ready job once');

select * from finish();
rollback;
