-- Storage decides nothing (docs/storage.md, S5): the column generation of
-- jq.jobs and jq.queue_waiters is read and written only by the storage
-- functions, and by the claim's steps and the wake-up of a paused queue's
-- waiters (_wake_queue), which use it to find again the rows they have just
-- picked (a ctid or an id names a row only within its partition), never to
-- choose one. A new function that reads it fails here
-- until it is one of these. Comments are left out of the comparison.
begin;
select plan(1);

select set_eq(
    $$select p.proname::text from pg_proc p
       where p.pronamespace = 'jq'::regnamespace
         and regexp_replace(p.prosrc, '--[^\n]*', '', 'g') ~* '\mgeneration\M'$$,
    $$values ('_storage_rotate'), ('_storage_empty'), ('_storage_empty_marks'), ('_storage_backlog_idle'),
             ('_jobs_columns'), ('jq_storage'),
             ('jq_claim'), ('_claim_take'), ('_claim_key_caps'), ('_claim_promote_due'), ('_claim_suspect'),
             ('_wake_queue')$$,
    'only the storage functions and the lookups of rows just picked read generation');

select * from finish();
rollback;
