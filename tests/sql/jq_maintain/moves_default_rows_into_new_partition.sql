-- A job that finishes on a day with no partition lands in
-- jq.job_history_default; when jq_maintain creates that day's partition it
-- moves the row there. Rows of days it does not create stay in the default.
begin;
select plan(7);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select (now() at time zone 'UTC')::date + 200 as d \gset
select jq_test.set_now((:'d'::date - 5 + time '10:00') at time zone 'UTC') \gset
select jq_test.enqueue_and_claim('w1', 'a', 'maint_q') as earlier \gset
select count(*) from jq.jq_complete(array[:'earlier'::uuid], 'w1') \gset
select jq_test.set_now((:'d'::date + time '10:00') at time zone 'UTC') \gset
select jq_test.enqueue_and_claim('w1', 'a', 'maint_q') as id \gset
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset

select is((select tableoid::regclass::text from jq.job_history where id = :'id'), 'jq.job_history_default',
          'with no partition for the day, the row lands in job_history_default');
select is(to_regclass('jq.job_history_p' || to_char(:'d'::date, 'YYYYMMDD')), null, 'the day has no partition yet');

select jq.jq_maintain() as r \gset
select is((select tableoid::regclass::text from jq.job_history where id = :'id'),
          'jq.job_history_p' || to_char(:'d'::date, 'YYYYMMDD'), 'jq_maintain moved it into the new day partition');
select is((select count(*)::int from jq.job_history_default where id = :'id'), 0, 'it is no longer in the default partition');
select is((select count(*)::int from jq.job_history where id = :'id'), 1, 'it was moved, not copied');
select is((select status from jq.jq_status(:'id')), 'succeeded', 'jq_status still finds it succeeded');
select is((select tableoid::regclass::text from jq.job_history where id = :'earlier'), 'jq.job_history_default',
          'a row of an earlier day, still within retention, stays in the default partition');

select * from finish();
rollback;
