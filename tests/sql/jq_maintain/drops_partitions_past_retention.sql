-- Forty days on, jq_maintain creates the partitions for that date and drops
-- today's, which are past the default 30-day retention, with their rows.
begin;
select plan(7);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

-- Today's partitions (install makes them; make sure) and a job finished today.
select jq.jq_maintain() \gset
select jq_test.enqueue_and_claim('w1', 'a', 'maint_q') as id \gset
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset
select (now() at time zone 'UTC')::date as today \gset
create temp table current_parts as
select 'job_history_p' || to_char(:'today'::date + k, 'YYYYMMDD') as name from generate_series(0, 3) k;
create temp table later_parts as
select 'job_history_p' || to_char(:'today'::date + k, 'YYYYMMDD') as name from generate_series(40, 43) k;

select is((select tableoid::regclass::text from jq.job_history where id = :'id'),
          'jq.job_history_p' || to_char(:'today'::date, 'YYYYMMDD'), 'the finished job sits in today''s partition');

select jq_test.set_now(now() + interval '40 days') \gset
select jq.jq_maintain() as r \gset

select is((:'r'::jsonb ->> 'partitions_created')::int, 4, 'four partitions created for the new date');
select is((select count(*)::int from later_parts where to_regclass('jq.' || name) is not null), 4,
          'the partitions for that day and the next three exist');
select cmp_ok((:'r'::jsonb ->> 'partitions_dropped')::int, '>=', 4, 'at least today''s four partitions dropped');
select is((select count(*)::int from current_parts where to_regclass('jq.' || name) is not null), 0,
          'today''s partitions are gone');
select is_empty(format('select * from jq.jq_status(%L)', :'id'), 'the job finished today is no longer found');
select is(jq.jq_cancel(:'id'), 'not_found', 'jq_cancel no longer knows it');

select * from finish();
rollback;
