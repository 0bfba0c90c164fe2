-- Migration 6 (release 0.4.0): the worker registry and poison containment.
--
--   jq.workers           one row per running worker: who it is (name, host,
--                        pid, queues and their slots, version), when it
--                        started and when it last beat. A worker silent for
--                        settings.worker_gone_after is declared gone (gone_at)
--                        by the next claim or jq_maintain of any other
--                        worker, and its running jobs go back to the queue
--                        at once instead of at lease expiry.
--   jq.settings gains
--     worker_gone_after  how long a registered worker may stay silent before
--                        it is declared gone; 15 s by default (pyjq beats
--                        every 3 s: five missed beats). 5 s to 1 hour.
--   jq.jobs gains
--     orphaned           how often the job lost its worker (death, lost
--                        lease) while that worker held other jobs too: the
--                        attempt was not counted, since any of them may have
--                        killed it. A job orphaned twice is a suspect and
--                        runs in isolation (alone in a worker), so that the
--                        next crash is blamed on the job that really kills.
--   jq.job_history,
--   jq.dead_jobs gain    orphaned, so a finished job's runs add up
--                        (runs = attempts + orphaned at most).
do $migration$
begin
if not jq._migration_pending(6) then
    return;
end if;

alter table jq.settings
    add column worker_gone_after interval not null default '15 seconds',
    add constraint settings_worker_gone_after_range
        check (worker_gone_after between interval '5 seconds' and interval '1 hour');
comment on table jq.settings is
    'One row of tunables: idempotency window, history retention and premade days, default max_attempts, input bounds (payload bytes and depth, error length), how long a silent worker is gone after, and whether the test clock (jq.now) is honoured.';

create table jq.workers (
    name       text primary key,
    host       text not null,
    pid        integer not null,
    queues     jsonb not null,
    version    text not null,
    started_at timestamptz not null,
    last_seen  timestamptz not null,
    gone_at    timestamptz,
    constraint workers_name_length check (char_length(name) between 1 and 255),
    constraint workers_host_length check (char_length(host) between 1 and 255),
    constraint workers_version_length check (char_length(version) between 1 and 64),
    constraint workers_queues_object check (jsonb_typeof(queues) = 'object')
);
comment on table jq.workers is
    'Registered workers (jq_worker_register) and their last heartbeat (jq_worker_beat); a worker silent for settings.worker_gone_after is declared gone and its jobs requeued.';
-- The claim's probe for workers gone silent: live rows by last beat.
create index workers_last_seen_idx on jq.workers (last_seen) where gone_at is null;

alter table jq.jobs
    add column orphaned smallint not null default 0,
    add constraint jobs_orphaned_range check (orphaned between 0 and 1000);
alter table jq.job_history add column orphaned smallint not null default 0;
alter table jq.dead_jobs add column orphaned smallint not null default 0;
-- A worker's running jobs: rescue of a gone worker, and the claim's "does
-- this worker hold anything, a suspect first?" (one index entry read).
create index jobs_locked_by_idx on jq.jobs (locked_by, orphaned desc) where status = 'processing';
-- Suspects waiting for an isolated run.
create index jobs_suspect_idx on jq.jobs (queue, run_at) where status = 'pending' and orphaned >= 2;

insert into jq.migrations (version, release, name) values (6, '0.4.0', 'workers');
end
$migration$;
