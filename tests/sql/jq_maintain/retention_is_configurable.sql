-- history_retention in jq.settings sets how long history is kept.
begin;
select plan(4);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select (now() at time zone 'UTC')::date + 400 as d0 \gset
select jq_test.set_now((:'d0'::date + time '12:00') at time zone 'UTC') \gset
select jq.jq_maintain() \gset

select jq_test.set_now((:'d0'::date + 8 + time '12:00') at time zone 'UTC') \gset
select jq.jq_maintain() as r1 \gset
select is((:'r1'::jsonb ->> 'partitions_dropped')::int, 0, 'with the default 30 days, an 8-day-old partition is kept');

update jq.settings set history_retention = '7 days';
select jq.jq_maintain() as r2 \gset
select is((:'r2'::jsonb ->> 'partitions_dropped')::int, 1, 'with 7 days it is dropped');
select is(jq_test.history_partition(:'d0'), null, 'd0''s partition is gone');
select isnt(jq_test.history_partition(:'d0'::date + 1), null, 'the day after, less than 7 days past, is kept');

select * from finish();
rollback;
