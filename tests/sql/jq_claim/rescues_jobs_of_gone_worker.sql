-- A registered worker holding 50 jobs with 5-minute leases stops beating:
-- 15 s later (settings.worker_gone_after) the next claim of another worker
-- declares it gone and takes the 50 jobs at once, long before their leases
-- expire. None of their attempts counts (any of them may have killed it).
begin;
select plan(6);

select jq_test.set_now('2030-03-01 09:00Z') \gset
select count(*) from jq.jq_worker_register('rescue-w1', '{"rescue_q": 50}') \gset
select count(*) from jq.jq_worker_register('rescue-w2', '{"rescue_q": 50}') \gset
select jq_test.enqueue_ready(50, 'work', 'rescue_q') as ids \gset
select is((select count(*)::int from jq.jq_claim('rescue_q', 'rescue-w1', 50, '5 minutes')), 50,
          'w1 holds 50 jobs with 5-minute leases');

select jq_test.advance('14 seconds') \gset
select count(*) from jq.jq_worker_beat('rescue-w2') \gset
select is_empty($$select * from jq.jq_claim('rescue_q', 'rescue-w2', 50)$$, 'silent 14 s: nothing is taken from w1');

select jq_test.advance('2 seconds') \gset
create temp table again as select * from jq.jq_claim('rescue_q', 'rescue-w2', 50);
select is((select count(*)::int from again), 50, 'silent 16 s: w2''s claim takes all 50 at once');
select is((select count(*)::int from again where attempts = 1), 50, 'each on attempt 1: the lost one not counted');
select is((select count(*)::int from jq.jobs where id = any(:'ids'::uuid[]) and orphaned = 1), 50,
          'each orphaned once');
select is_empty(format('select * from jq.jq_complete(%L::uuid[], %L)', :'ids', 'rescue-w1'),
                'the gone worker''s late completions are refused');

select * from finish();
rollback;
