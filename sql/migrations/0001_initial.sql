-- Migration 1 (release 0.1.0): the tables.
--
--   jq.jobs              live jobs only: pending (ready, scheduled or waiting
--                        for a retry) and processing (leased to a worker)
--   jq.dead_jobs         jobs that used up their attempts or were discarded
--   jq.job_history       one small row per finished job, partitioned by day
--   jq.idempotency_keys  (queue, key) -> job id, kept while the job is live
--                        and for a window after it leaves jq.jobs
--   jq.schedules         cron schedules (fired by a later release)
--   jq.settings          one row of tunables (windows, retention)
--   jq.queue_waiters     idle workers per queue, so NOTIFY is sent only when
--                        it can wake someone
--
-- The *_queue_format constraints call jq._is_queue_name (functions/checks.sql),
-- the one home of the queue-name rule; releases before 0.4.0 wrote the rule
-- inline here, and migration 4 gives their databases the same definition.
--
-- A job flows: jq_enqueue inserts into jq.jobs -> jq_claim leases it ->
-- jq_complete deletes it and appends to jq.job_history, or jq_fail puts it
-- back with a later run_at, or moves it to jq.dead_jobs.
do $migration$
begin
if not jq._migration_pending(1) then
    return;
end if;

create table jq.settings (
    singleton            boolean primary key default true,
    idempotency_window   interval not null default '24 hours',
    history_retention    interval not null default '30 days',
    history_premake_days integer not null default 3,
    default_max_attempts integer not null default 25,
    constraint settings_singleton check (singleton),
    constraint settings_idempotency_window_positive check (idempotency_window > interval '0'),
    constraint settings_history_retention_positive check (history_retention >= interval '1 day'),
    constraint settings_history_premake_days_range check (history_premake_days between 1 and 60),
    constraint settings_default_max_attempts_range check (default_max_attempts between 1 and 1000)
);
comment on table jq.settings is 'One row of tunables: idempotency window, history retention and premade days, default max_attempts.';
insert into jq.settings default values;

create table jq.jobs (
    id               uuid primary key,
    queue            text not null default 'default',
    type             text not null,
    payload          jsonb not null default '{}',
    priority         smallint not null default 0,
    run_at           timestamptz not null,
    status           text not null default 'pending',
    locked_until     timestamptz,
    locked_by        text,
    attempts         smallint not null default 0,
    max_attempts     smallint not null,
    idempotency_key  text,
    tenant           text,
    last_error       text,
    created_at       timestamptz not null,
    cancel_requested boolean not null default false,
    constraint jobs_type_length check (char_length(type) between 1 and 128),
    constraint jobs_queue_format check (jq._is_queue_name(queue)),
    constraint jobs_idempotency_key_length check (char_length(idempotency_key) between 1 and 255),
    constraint jobs_tenant_length check (char_length(tenant) between 1 and 128),
    constraint jobs_payload_object check (jsonb_typeof(payload) = 'object'),
    constraint jobs_max_attempts_range check (max_attempts between 1 and 1000),
    constraint jobs_attempts_range check (attempts between 0 and max_attempts),
    constraint jobs_status_valid check (status in ('pending', 'processing')),
    constraint jobs_lease_consistent check (
        (status = 'processing') = (locked_by is not null)
        and (status = 'processing') = (locked_until is not null))
);
comment on table jq.jobs is 'Live jobs only (pending or processing); finished jobs leave at once. Use the jq_* functions, not this table.';

-- The claim query: one queue, pending, run_at <= now, ORDER BY priority DESC,
-- run_at. Partial, so leased rows and the rest of the table never enter it.
create index jobs_claim_idx on jq.jobs (queue, priority desc, run_at) where status = 'pending';
-- Finding expired leases (jq_claim and jq_maintain reap them).
create index jobs_lease_idx on jq.jobs (queue, locked_until) where status = 'processing';

-- Every job is inserted, updated once or twice and deleted, so jq.jobs turns
-- over its whole content constantly while staying small. The default trigger
-- (20% of the table dead) lets a small table collect many times its live
-- size in dead rows between vacuums, and every claim then walks them. Vacuum
-- after a fixed number of dead rows instead, without cost-based sleeping, and
-- leave room in each page for the claim's update.
alter table jq.jobs set (
    fillfactor = 80,
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 2000,
    autovacuum_vacuum_insert_scale_factor = 0,
    autovacuum_vacuum_insert_threshold = 5000,
    autovacuum_analyze_scale_factor = 0,
    autovacuum_analyze_threshold = 5000,
    autovacuum_vacuum_cost_delay = 0
);

create table jq.dead_jobs (
    id                uuid primary key,
    queue             text not null,
    type              text not null,
    payload           jsonb not null,
    priority          smallint not null,
    run_at            timestamptz not null,
    attempts          smallint not null,
    max_attempts      smallint not null,
    idempotency_key   text,
    tenant            text,
    last_error        text not null,
    error_fingerprint text not null,
    created_at        timestamptz not null,
    failed_at         timestamptz not null,
    constraint dead_jobs_type_length check (char_length(type) between 1 and 128),
    constraint dead_jobs_queue_format check (jq._is_queue_name(queue)),
    constraint dead_jobs_idempotency_key_length check (char_length(idempotency_key) between 1 and 255),
    constraint dead_jobs_tenant_length check (char_length(tenant) between 1 and 128),
    constraint dead_jobs_payload_object check (jsonb_typeof(payload) = 'object'),
    constraint dead_jobs_max_attempts_range check (max_attempts between 1 and 1000)
);
comment on table jq.dead_jobs is 'Jobs that used up their attempts or were discarded; grouped by jq_dead_groups, requeued by jq_retry_dead.';
create index dead_jobs_group_idx on jq.dead_jobs (type, error_fingerprint, failed_at);
create index dead_jobs_failed_at_idx on jq.dead_jobs (failed_at);

create table jq.job_history (
    id              uuid not null,
    queue           text not null,
    type            text not null,
    tenant          text,
    status          text not null,
    attempts        smallint not null,
    max_attempts    smallint not null,
    idempotency_key text,
    last_error      text,
    run_at          timestamptz not null,
    created_at      timestamptz not null,
    finished_at     timestamptz not null,
    constraint job_history_status_valid check (status in ('succeeded', 'cancelled'))
) partition by range (finished_at);
comment on table jq.job_history is 'Append-only record of finished jobs, one partition per UTC day, rotated by jq_maintain.';
create index job_history_id_idx on jq.job_history (id);
-- Rows land here only when a day's partition is missing; jq_maintain moves
-- them into the right partition when it creates it.
create table jq.job_history_default partition of jq.job_history default;

create table jq.idempotency_keys (
    queue           text not null,
    idempotency_key text not null,
    job_id          uuid not null,
    expires_at      timestamptz not null,
    primary key (queue, idempotency_key)
);
comment on table jq.idempotency_keys is 'Dedupe store: a key maps to its job while the job is live and for settings.idempotency_window after it finished.';
create index idempotency_keys_expires_idx on jq.idempotency_keys (expires_at);

create table jq.schedules (
    name           text primary key,
    cron           text not null,
    timezone       text not null default 'UTC',
    type           text not null,
    payload        jsonb not null default '{}',
    queue          text not null default 'default',
    priority       smallint not null default 0,
    max_attempts   smallint,
    jitter_seconds integer not null default 0,
    enabled        boolean not null default true,
    next_run_at    timestamptz,
    last_run_at    timestamptz,
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now(),
    constraint schedules_name_length check (char_length(name) between 1 and 128),
    constraint schedules_type_length check (char_length(type) between 1 and 128),
    constraint schedules_queue_format check (jq._is_queue_name(queue)),
    constraint schedules_payload_object check (jsonb_typeof(payload) = 'object'),
    constraint schedules_max_attempts_range check (max_attempts between 1 and 1000),
    constraint schedules_jitter_range check (jitter_seconds between 0 and 86400),
    constraint schedules_cron_length check (char_length(cron) between 1 and 255),
    constraint schedules_timezone_length check (char_length(timezone) between 1 and 64)
);
comment on table jq.schedules is 'Cron schedules in a named timezone with jitter; each firing enqueues one job.';

-- Workers idle on a queue, waiting for a NOTIFY. The insert trigger notifies
-- only queues listed here: NOTIFY serialises every notifying commit on one
-- database-wide lock, so busy queues (no one waiting) must not pay for it.
create table jq.queue_waiters (
    queue       text not null,
    worker      text not null,
    backend_pid integer not null,
    since       timestamptz not null,
    primary key (queue, worker)
);
comment on table jq.queue_waiters is 'Workers waiting for work on a queue (jq_set_waiting); the NOTIFY trigger wakes only these queues.';

insert into jq.migrations (version, release, name) values (1, '0.1.0', 'initial');
end
$migration$;
