-- jq_maintain deletes dead jobs that failed longer than
-- settings.dead_retention (30 days by default) ago, oldest first, at most
-- 10,000 a call, and reports how many as dead_purged.
begin;
select plan(5);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-01 08:00Z') \gset
select jq_test.bury('old.job', 'Timeout after 30s') \gset
select jq_test.set_now('2030-01-20 08:00Z') \gset
select jq_test.bury('newer.job', 'Timeout after 30s') \gset

select jq_test.set_now('2030-01-31 09:00Z') \gset
select jq.jq_maintain() as r1 \gset
select is((:'r1'::jsonb ->> 'dead_purged')::int, 1, 'the job dead for 30 days and an hour is deleted');
select results_eq('select type from jq.dead_jobs', $$values ('newer.job'::text)$$, 'the one dead for 11 days stays');

update jq.settings set dead_retention = '1 day';
select jq.jq_maintain() as r2 \gset
select is((:'r2'::jsonb ->> 'dead_purged')::int, 1, 'with a retention of one day it goes too');

-- The bound: 10,000 a call.
insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts, last_error,
                          error_fingerprint, created_at, failed_at)
select gen_random_uuid(), 'q', 'bulk', '{}', 0, '2029-01-01Z', 1, 1, 'x', 'x', '2029-01-01Z', '2029-01-01Z'
  from generate_series(1, 10005);
select jq.jq_maintain() as r3 \gset
select is((:'r3'::jsonb ->> 'dead_purged')::int, 10000, 'one call deletes at most 10,000');
select jq.jq_maintain() as r4 \gset
select is((:'r4'::jsonb ->> 'dead_purged')::int, 5, 'the next call the rest');

select * from finish();
rollback;
