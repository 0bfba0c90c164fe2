-- jq_maintain creates the jq.job_history partitions for today and the next
-- settings.history_premake_days days (default 3), named
-- jq.job_history_pYYYYMMDD, each covering one UTC day whatever the session's
-- time zone; it creates none twice.
begin;
select plan(9);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

-- Tokyo is 9 hours ahead: at 20:00 UTC its local date is already tomorrow.
set local timezone = 'Asia/Tokyo';
select (now() at time zone 'UTC')::date + 400 as d0 \gset
select jq_test.set_now((:'d0'::date + time '20:00') at time zone 'UTC') \gset
create temp table expected as
select 'job_history_p' || to_char(:'d0'::date + k, 'YYYYMMDD') as name, :'d0'::date + k as day
  from generate_series(0, 3) k;

select is((select count(*)::int from expected e where to_regclass('jq.' || e.name) is not null), 0,
          'none of the four partitions exists yet');

select jq.jq_maintain() as r1 \gset
select is((:'r1'::jsonb ->> 'partitions_created')::int, 4, 'jq_maintain reports four partitions created');
select set_eq(
    $$select c.relname::text from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'jq.job_history'::regclass and c.relname in (select name from expected)$$,
    'select name from expected',
    'today''s (UTC) and the next three days'' partitions are attached to jq.job_history');

set local timezone = 'UTC';
select is_empty(
    $$select e.name from expected e
       where pg_get_expr((select relpartbound from pg_class where oid = ('jq.' || e.name)::regclass),
                         ('jq.' || e.name)::regclass)
             is distinct from format('FOR VALUES FROM (%L) TO (%L)',
                                     to_char(e.day, 'YYYY-MM-DD') || ' 00:00:00+00',
                                     to_char(e.day + 1, 'YYYY-MM-DD') || ' 00:00:00+00')$$,
    'each partition covers its UTC day, midnight to midnight');
select is((select count(*)::int from expected e
            where exists (select 1 from pg_index x where x.indrelid = ('jq.' || e.name)::regclass)), 4,
          'each partition has the id index that jq_status looks jobs up by');
select is(to_regclass('jq.job_history_p' || to_char(:'d0'::date + 4, 'YYYYMMDD')), null,
          'no partition beyond history_premake_days');

select jq.jq_maintain() as r2 \gset
select is((:'r2'::jsonb ->> 'partitions_created')::int, 0, 'a second call creates nothing');

update jq.settings set history_premake_days = 5;
select jq.jq_maintain() as r3 \gset
select is((:'r3'::jsonb ->> 'partitions_created')::int, 2, 'raising history_premake_days to 5 creates two more');
select isnt(to_regclass('jq.job_history_p' || to_char(:'d0'::date + 5, 'YYYYMMDD')), null,
            'the partition five days ahead exists');

select * from finish();
rollback;
