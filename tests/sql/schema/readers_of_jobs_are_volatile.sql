-- Every function of schema jq that reads jq.jobs is VOLATILE, but one. A
-- STABLE function reads with its caller's snapshot, taken before the
-- function's own statement locked the partitions of jq.jobs: if that lock
-- waited for jq_tick, the snapshot predates the move and the
-- TRUNCATE, and the job is seen nowhere (a status lookup of a live job
-- returned nothing until this rule). A VOLATILE function's statements take
-- their snapshot after their locks (docs/storage.md).
--
-- The exception: jq._key_room, called only inside claim statements that read
-- jq.jobs themselves (so the partitions are locked before their snapshot).
begin;
select plan(1);

select is_empty(
    $$select p.oid::regprocedure::text
        from pg_proc p
       where p.pronamespace = 'jq'::regnamespace
         and p.provolatile <> 'v'
         and p.prosrc ~ 'jq\.jobs\M(?!_)'
         and p.proname <> '_key_room'$$,
    'no STABLE or IMMUTABLE function of schema jq reads jq.jobs');

select * from finish();
rollback;
