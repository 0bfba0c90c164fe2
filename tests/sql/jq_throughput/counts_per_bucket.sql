-- Per bucket: jobs that succeeded, were cancelled or went dead in it, and the
-- failed attempts of the jobs that finished in it; every bucket from the
-- aligned start to now is listed, empty ones with zeros.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
-- 08:10 a job succeeds at its first attempt.
select jq_test.advance('10 minutes') \gset
select jq_test.enqueue_and_claim('w1', 'tp', 'tp_q') as ok1 \gset
select count(*) from jq.jq_complete(array[:'ok1'::uuid], 'w1') \gset
-- 08:20 a job succeeds at its second attempt (one failed attempt).
select jq_test.enqueue_and_claim('w1', 'tp', 'tp_q', 5) as ok2 \gset
select count(*) from jq.jq_fail(:'ok2', 'w1', 'boom', '1 minute') \gset
select jq_test.advance('10 minutes') \gset
select count(*) from jq.jq_claim('tp_q', 'w1', 10) \gset
select count(*) from jq.jq_complete(array[:'ok2'::uuid], 'w1') \gset
-- 09:05 a job goes dead after its only attempt; 09:10 a queued job is cancelled.
select jq_test.set_now('2030-01-15 09:05Z') \gset
select jq_test.enqueue_and_claim('w1', 'tp', 'tp_q', 1) as dead1 \gset
select count(*) from jq.jq_fail(:'dead1', 'w1', 'boom') \gset
select jq_test.advance('5 minutes') \gset
select job_id as gone from jq.jq_enqueue('tp', '{}', 'tp_q') \gset
select jq.jq_cancel(:'gone') \gset
select jq_test.set_now('2030-01-15 10:30Z') \gset

select results_eq(
    $$select bucket_start, succeeded, cancelled, dead, failed_attempts
        from jq.jq_throughput('2030-01-15 08:30Z', '1 hour')$$,
    $$values ('2030-01-15 08:00Z'::timestamptz, 2::bigint, 0::bigint, 0::bigint, 1::bigint),
             ('2030-01-15 09:00Z', 0, 1, 1, 1),
             ('2030-01-15 10:00Z', 0, 0, 0, 0)$$,
    'hourly buckets from the aligned start to now: succeeded, cancelled, dead, failed attempts');

select results_eq(
    $$select bucket_start, succeeded from jq.jq_throughput('2030-01-15 08:00Z', '15 minutes') where succeeded > 0$$,
    $$values ('2030-01-15 08:00Z'::timestamptz, 1::bigint), ('2030-01-15 08:15Z', 1)$$,
    'a smaller bucket splits them');

select is((select count(*)::int from jq.jq_throughput(null, '1 hour')), 25,
          'without p_since: the last day, 25 hourly buckets (the partial ones at both ends included)');

select is((select sum(succeeded)::int from jq.jq_throughput('2030-01-15 10:00Z', '1 hour')), 0,
          'a window after the jobs finished counts none of them');

select * from finish();
rollback;
