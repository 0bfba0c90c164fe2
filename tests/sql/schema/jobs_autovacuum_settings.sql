-- jq.jobs turns over constantly while staying small, so it vacuums after a
-- fixed number of dead rows (scale factors 0), without cost delay, and leaves
-- room in each page for the claim's update (fillfactor 80).
begin;
select plan(2);

select is_empty(
    $$select o from unnest(array[
          'fillfactor=80',
          'autovacuum_vacuum_scale_factor=0',
          'autovacuum_vacuum_threshold=2000',
          'autovacuum_vacuum_insert_scale_factor=0',
          'autovacuum_vacuum_insert_threshold=5000',
          'autovacuum_analyze_scale_factor=0',
          'autovacuum_analyze_threshold=5000',
          'autovacuum_vacuum_cost_delay=0']) o
       where o <> all ((select reloptions from pg_class where oid = 'jq.jobs'::regclass)::text[])$$,
    'jq.jobs has its autovacuum and fillfactor settings');
select matches(obj_description('jq.jobs'::regclass, 'pg_class'), '\S', 'jq.jobs has a comment');

select * from finish();
rollback;
