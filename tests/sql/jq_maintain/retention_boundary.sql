-- A day partition is dropped once its whole day is older than
-- settings.history_retention (30 days), not a moment before.
begin;
select plan(6);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select (now() at time zone 'UTC')::date + 400 as d0 \gset
select jq_test.set_now((:'d0'::date + time '12:00') at time zone 'UTC') \gset
select jq.jq_maintain() \gset

-- Exactly 31 days after the start of d0: d0 ended exactly 30 days ago.
select jq_test.set_now((:'d0'::date + 31)::timestamp at time zone 'UTC' - interval '1 microsecond') \gset
select jq.jq_maintain() as r1 \gset
select is((:'r1'::jsonb ->> 'partitions_dropped')::int, 0, 'a moment before d0 is 30 days past, nothing is dropped');
select isnt(jq_test.history_partition(:'d0'), null, 'd0''s partition is still there');

select jq_test.set_now((:'d0'::date + 31)::timestamp at time zone 'UTC') \gset
select jq.jq_maintain() as r2 \gset
select is((:'r2'::jsonb ->> 'partitions_dropped')::int, 1, 'once d0 ended 30 days ago, one partition is dropped');
select is(jq_test.history_partition(:'d0'), null, 'it is d0''s');
select isnt(jq_test.history_partition(:'d0'::date + 1), null, 'the next day''s partition is kept');
select isnt(jq_test.history_partition(:'d0'::date + 31), null, 'and today''s exists');

select * from finish();
rollback;
