-- Rows in jq.job_history_default older than the retention are deleted too.
begin;
select plan(3);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select (now() at time zone 'UTC')::date + 200 as d \gset
select jq_test.set_now((:'d'::date + time '10:00') at time zone 'UTC') \gset
select jq_test.enqueue_and_claim('w1', 'a', 'maint_q') as id \gset
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset

select is((select tableoid::regclass::text from jq.job_history where id = :'id'), 'jq.job_history_default',
          'the row is in the default partition');
select jq_test.advance('29 days') \gset
select jq.jq_maintain() \gset
select is((select count(*)::int from jq.job_history_default where id = :'id'), 1, 'within retention it is kept');
select jq_test.advance('2 days') \gset
select jq.jq_maintain() \gset
select is((select count(*)::int from jq.job_history where id = :'id'), 0, 'past retention it is deleted');

select * from finish();
rollback;
