-- The attack: a role holding only jq_worker ran jq_maintain() under
-- jq.now = 2100: it created partitions for 2100 and dropped the current days'
-- history partitions. With the test clock off, maintenance works on today.
begin;
select plan(4);

update jq.settings set allow_test_clock = false;
select jq.jq_maintain();  -- today's partitions exist before the attack
select count(*) as before from pg_inherits where inhparent = 'jq.job_history'::regclass \gset

set local role jq_worker;
set local jq.now = '2100-01-01 00:00Z';
select jq.jq_maintain() is not null as ran \gset
reset role;
reset jq.now;

select ok(:'ran'::boolean, 'jq_maintain ran as jq_worker');
select ok(to_regclass('jq.job_history_p' || to_char(now() at time zone 'UTC', 'YYYYMMDD')) is not null,
          'today''s history partition is still there');
select is((select count(*) from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'jq.job_history'::regclass and c.relname like 'job_history_p2100%'),
          0::bigint, 'no partition was made for 2100');
select is((select count(*) from pg_inherits where inhparent = 'jq.job_history'::regclass), :before::bigint,
          'no partition was dropped or added');

select * from finish();
rollback;
