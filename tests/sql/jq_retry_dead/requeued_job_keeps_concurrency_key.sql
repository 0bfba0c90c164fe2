-- A job's concurrency_key is kept when it is dead-lettered (by jq_fail, or
-- by a claim after its lease expired on the last attempt) and when
-- jq_retry_dead requeues it; the requeued job is key-capped again.
begin;
select plan(6);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select job_id as failed from jq.jq_enqueue('rdk.sync', '{}', 'dead_key', 0, null, 1, null, 'acme', 'acct-1') \gset
select count(*) from jq.jq_claim('dead_key', 'w1') \gset
select count(*) from jq.jq_fail(:'failed', 'w1', 'HTTP 503') \gset
select job_id as expired from jq.jq_enqueue('rdk.sync', '{}', 'dead_key', 0, null, 1, null, 'acme', 'acct-2') \gset
select count(*) from jq.jq_claim('dead_key', 'w1', 1, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq.jq_claim('dead_key', 'w1') \gset

select results_eq($$select id, concurrency_key from jq.dead_jobs order by concurrency_key$$,
                  format('values (%L::uuid, %L::text), (%L, %L)', :'failed', 'acct-1', :'expired', 'acct-2'),
                  'both dead jobs keep their concurrency key (jq_fail and expired lease)');

select jq_test.advance('1 hour') \gset
select is(jq.jq_retry_dead('rdk.sync'), 2, 'both are requeued');
select results_eq($$select id, concurrency_key, tenant from jq.jobs order by concurrency_key$$,
                  format('values (%L::uuid, %L::text, %L::text), (%L, %L, %L)', :'failed', 'acct-1', 'acme', :'expired', 'acct-2', 'acme'),
                  'the requeued jobs have their concurrency keys (and tenants) back');

-- Key-capped again: another acct-1 job runs, so the requeued one waits.
select job_id as running from jq.jq_enqueue('rdk.sync', '{}', 'other_q', 0, null, null, null, null, 'acct-1') \gset
select count(*) from jq.jq_claim('other_q', 'w2') \gset
select is((select status from jq.jobs where id = :'running'), 'processing', 'another sync/acct-1 job runs');
select results_eq($$select id from jq.jq_claim('dead_key', 'w1', 10)$$, array[:'expired'::uuid],
                  'a claim takes only the requeued acct-2 job: the acct-1 one is capped');
select is((select status from jq.jobs where id = :'failed'), 'pending', 'the requeued acct-1 job stays pending');

select * from finish();
rollback;
