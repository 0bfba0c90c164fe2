-- The tables of docs/design.md ("Tables, and why each exists"), each with a comment saying what lives there;
-- jq.job_history is range-partitioned on finished_at with a default partition.
begin;
select plan(17);

select has_table('jq', 'jobs', 'jq.jobs exists');
select has_table('jq', 'dead_jobs', 'jq.dead_jobs exists');
select has_table('jq', 'job_history', 'jq.job_history exists');
select has_table('jq', 'schedules', 'jq.schedules exists');
select has_table('jq', 'idempotency_keys', 'jq.idempotency_keys exists');
select has_table('jq', 'settings', 'jq.settings exists');
select has_table('jq', 'migrations', 'jq.migrations exists');
select has_table('jq', 'tenant_policies', 'jq.tenant_policies exists');
select has_table('jq', 'fair_lanes', 'jq.fair_lanes exists');
select has_table('jq', 'key_limits', 'jq.key_limits exists');
select has_table('jq', 'queue_settings', 'jq.queue_settings exists');

select is_partitioned('jq', 'job_history', 'jq.job_history is partitioned');
select is(pg_get_partkeydef('jq.job_history'::regclass), 'RANGE (finished_at)', 'by range of finished_at');
select is_partition_of('jq', 'job_history_default', 'jq', 'job_history', 'job_history_default is its partition');
select is(pg_get_expr(relpartbound, oid), 'DEFAULT', 'and it is the default partition')
  from pg_class where oid = 'jq.job_history_default'::regclass;
select is_empty(
    $$select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'jq.job_history'::regclass
         and c.relname <> 'job_history_default' and c.relname !~ '^job_history_p\d{8}$'$$,
    'every other partition is a day partition named job_history_pYYYYMMDD');

select is_empty(
    $$select c.oid::regclass from pg_class c
       where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
         and coalesce(obj_description(c.oid, 'pg_class'), '') = ''$$,
    'every jq table has a comment');

select * from finish();
rollback;
