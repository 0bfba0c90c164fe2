-- Every function of schema jq that reads jq.queue_waiters (or one of its
-- partitions) is VOLATILE: the marks are in generations that
-- jq_tick moves and truncates, and a STABLE
-- function reads with its caller's snapshot, taken before its own statement
-- waited for the rotation's lock: it would see the truncated partition empty
-- and miss the moved marks (a waiting worker left unnotified). As for
-- jq.jobs, readers_of_jobs_are_volatile.sql (docs/storage.md).
begin;
select plan(2);

select isnt_empty(
    $$select 1 from pg_proc p
       where p.pronamespace = 'jq'::regnamespace and p.prosrc ~ 'jq\.queue_waiters\M'$$,
    'functions of schema jq read jq.queue_waiters (the check below looks at something)');
select is_empty(
    $$select p.oid::regprocedure::text
        from pg_proc p
       where p.pronamespace = 'jq'::regnamespace
         and p.provolatile <> 'v'
         and p.prosrc ~ 'queue_waiters'$$,
    'no STABLE or IMMUTABLE function of schema jq reads jq.queue_waiters');

select * from finish();
rollback;
