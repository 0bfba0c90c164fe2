-- jq.jobs turns over constantly while staying small, so each of its
-- partitions (the generations and jobs_waiting, migration 13) vacuums after
-- a fixed number of dead rows (scale factors 0), without cost delay, and
-- leaves room in each page for the claim's update (fillfactor 80). The
-- partitioned parent itself stores nothing.
begin;
select plan(3);

select is((select count(*)::int from pg_partition_tree('jq.jobs') p where p.isleaf), 4,
          'jq.jobs has four partitions');
select is_empty(
    $$select p.relid::regclass::text || ' lacks ' || o
        from pg_partition_tree('jq.jobs') p
       cross join unnest(array[
          'fillfactor=80',
          'autovacuum_vacuum_scale_factor=0',
          'autovacuum_vacuum_threshold=2000',
          'autovacuum_vacuum_insert_scale_factor=0',
          'autovacuum_vacuum_insert_threshold=5000',
          'autovacuum_analyze_scale_factor=0',
          'autovacuum_analyze_threshold=5000',
          'autovacuum_vacuum_cost_delay=0']) o
       where p.isleaf
         and o <> all (coalesce((select c.reloptions from pg_class c where c.oid = p.relid), '{}')::text[])$$,
    'every partition of jq.jobs has the autovacuum and fillfactor settings');
select matches(obj_description('jq.jobs'::regclass, 'pg_class'), '\S', 'jq.jobs has a comment');

select * from finish();
rollback;
