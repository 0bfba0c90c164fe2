-- Migration 2 (release 0.2.0): firing recurring schedules.
--
--   jq.schedules         gains missed (what to do with slots no scheduler
--                        fired in time: latest, all, none); last_run_at
--                        becomes last_slot_at (the newest slot fired, not
--                        when it ran); an index finds due schedules
--   jq.timezone_names    names already checked against pg_timezone_names,
--                        which takes ~50 ms to read
--
-- A schedule flows: jq_schedule_put writes it -> every worker's scheduler
-- claims due rows with jq_schedules_due (SKIP LOCKED), computes the slots
-- with croniter in the schedule's timezone, and calls jq_schedules_fire,
-- which advances next_run_at and enqueues one job per slot in the same
-- transaction.
do $migration$
begin
if not jq._migration_pending(2) then
    return;
end if;

alter table jq.schedules rename column last_run_at to last_slot_at;
alter table jq.schedules add column missed text not null default 'latest';
alter table jq.schedules add constraint schedules_missed_valid check (missed in ('latest', 'all', 'none'));
comment on table jq.schedules is
    'Cron schedules in a named timezone with jitter; each slot enqueues one job (jq_schedule_put, jq_schedules_due, jq_schedules_fire).';

-- The scheduler's claim: enabled rows whose next_run_at has come (or is not
-- computed yet, null), oldest first.
create index schedules_due_idx on jq.schedules (next_run_at) where enabled;

create table jq.timezone_names (
    name text primary key
);
comment on table jq.timezone_names is
    'Cache of IANA time zone names found in pg_timezone_names by jq_schedule_put (reading that view takes ~50 ms).';

insert into jq.migrations (version, release, name) values (2, '0.2.0', 'schedules');
end
$migration$;
