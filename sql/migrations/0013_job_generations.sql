-- Migration 13 (release 0.6.0): jq.jobs in generations that are truncated
-- (issue #16, docs/storage.md).
--
--   jq.jobs            becomes a table partitioned by list on a new column,
--                      generation smallint: jq.jobs_g0, jq.jobs_g1 and
--                      jq.jobs_g2 take new rows in turn, two seconds each
--                      (the column's default, jq._storage_slot, in
--                      sql/functions/storage_slot.sql), and jq.jobs_waiting
--                      (3) keeps jobs due later than settings.waiting_horizon.
--                      jq_storage_rotate moves what is still alive in a
--                      generation that no longer takes rows and TRUNCATEs it,
--                      so a held snapshot pins at most a few seconds of dead
--                      row versions instead of everything since it began.
--                      The primary key becomes (id, generation) (a key of a
--                      partitioned table holds its partition key); ids stay
--                      unique, jq makes them with gen_random_uuid(). Every
--                      column, CHECK, index and storage setting is kept; each
--                      partition has the fillfactor and autovacuum settings
--                      jq.jobs had.
--   jq.jobs_waiting    gains jobs_waiting_due_idx (run_at), the promotion's
--                      way in.
--   jq.storage_generations  one row per generation: when it was last
--                      truncated, how many times, how many rows were moved
--                      out of it, how many lock requests in a row were
--                      refused (the next one waits longer); read by
--                      jq_storage().
--   jq.settings        gains waiting_horizon (5 minutes) and
--                      rotation_move_limit (2,000: a generation holding more
--                      live rows is left to drain and tried again later).
--   jq.claim_job       (the claim's taken jobs) gains id and generation: a
--                      ctid names a row only within one partition, so the
--                      lease finds a job by (generation, ctid) and the other
--                      steps by (id, generation).
--
-- Every live job is copied with everything it holds (status, lease, attempts,
-- keys, attempt log) into the generation of the current slot, or into
-- jq.jobs_waiting when it is deferred beyond the horizon. The copy takes an
-- ACCESS EXCLUSIVE lock on jq.jobs for its length, as the whole install runs
-- in one transaction: about a second per 100,000 live jobs (docs/operations.md).
do $migration$
declare
    v_part text;
begin
if not jq._migration_pending(13) then
    return;
end if;

lock table jq.jobs in access exclusive mode;
alter table jq.jobs rename to jobs_0012;
alter table jq.jobs_0012 drop constraint jobs_pkey;
drop index jq.jobs_claim_idx, jq.jobs_created_idx, jq.jobs_deferred_idx, jq.jobs_lease_idx,
           jq.jobs_locked_by_idx, jq.jobs_running_key_idx, jq.jobs_running_tenant_idx, jq.jobs_suspect_idx,
           jq.jobs_tenant_created_idx;
drop trigger if exists jobs_notify_ready on jq.jobs_0012;

create table jq.jobs (
    id               uuid not null,
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
    concurrency_key  text,
    deferred         boolean not null default false,
    orphaned         smallint not null default 0,
    attempt_log      jsonb,
    metadata         jsonb,
    generation       smallint not null default jq._storage_slot(statement_timestamp()),
    constraint jobs_pkey primary key (id, generation),
    constraint jobs_attempts_range check (attempts >= 0 and attempts <= max_attempts),
    constraint jobs_concurrency_key_length check (char_length(concurrency_key) between 1 and 255),
    constraint jobs_idempotency_key_length check (char_length(idempotency_key) between 1 and 255),
    constraint jobs_lease_consistent check ((status = 'processing') = (locked_by is not null)
                                            and (status = 'processing') = (locked_until is not null)),
    constraint jobs_max_attempts_range check (max_attempts between 1 and 1000),
    constraint jobs_metadata_object check (jsonb_typeof(metadata) = 'object'),
    constraint jobs_orphaned_range check (orphaned between 0 and 1000),
    constraint jobs_payload_object check (jsonb_typeof(payload) = 'object'),
    constraint jobs_queue_format check (jq._is_queue_name(queue)),
    constraint jobs_status_valid check (status in ('pending', 'processing')),
    constraint jobs_tenant_length check (char_length(tenant) between 1 and 128),
    constraint jobs_type_length check (char_length(type) between 1 and 128)
) partition by list (generation);
comment on table jq.jobs is
    'Live jobs only (pending or processing), in generations (jobs_g0..g2, jobs_waiting) that jq_storage_rotate truncates: read it through the jq_* functions, a snapshot older than a truncation misses rows.';
comment on column jq.jobs.metadata is
    'Headers of the job (an object of strings), e.g. the W3C trace context: traceparent, tracestate. Null when none.';
comment on column jq.jobs.generation is
    'Where the row is stored: 0..2 the generation of the two-second slot it was written in (jq._storage_slot), 3 jobs_waiting (due later than settings.waiting_horizon). Storage only: no rule reads it.';

foreach v_part in array array['g0', 'g1', 'g2', 'waiting'] loop
    execute format(
        'create table jq.%I partition of jq.jobs for values in (%s)
           with (fillfactor = 80, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
                 autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 5000,
                 autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000,
                 autovacuum_vacuum_cost_delay = 0)',
        'jobs_' || v_part, case v_part when 'waiting' then 3 else substr(v_part, 2)::integer end);
end loop;
comment on table jq.jobs_waiting is
    'Jobs due later than settings.waiting_horizon, out of the generations'' way; jq_storage_rotate moves them back when they come within it.';

create index jobs_claim_idx on jq.jobs (queue, priority desc, coalesce(tenant, ''), run_at)
    where status = 'pending' and not deferred;
create index jobs_created_idx on jq.jobs (created_at, id);
create index jobs_deferred_idx on jq.jobs (queue, priority desc, run_at) where status = 'pending' and deferred;
create index jobs_lease_idx on jq.jobs (queue, locked_until) where status = 'processing';
create index jobs_locked_by_idx on jq.jobs (locked_by, orphaned desc) where status = 'processing';
create index jobs_running_key_idx on jq.jobs (type, concurrency_key)
    where status = 'processing' and concurrency_key is not null;
create index jobs_running_tenant_idx on jq.jobs (queue, tenant) where status = 'processing' and tenant is not null;
create index jobs_suspect_idx on jq.jobs (queue, run_at) where status = 'pending' and orphaned >= 2;
create index jobs_tenant_created_idx on jq.jobs (tenant, created_at, id) where tenant is not null;
create index jobs_waiting_due_idx on jq.jobs_waiting (run_at);
-- Name each partition's index after its parent's: jobs_g0_claim_idx, ... (plans read better).
for v_part in
    select format('alter index jq.%I rename to %I', c.relname,
                  t.relname || '_' || substr(p.relname, length('jobs_') + 1))
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
      join pg_index x on x.indexrelid = c.oid
      join pg_class t on t.oid = x.indrelid
     where p.relnamespace = 'jq'::regnamespace and p.relkind = 'I'
       and p.relname in ('jobs_claim_idx', 'jobs_created_idx', 'jobs_deferred_idx', 'jobs_lease_idx',
                         'jobs_locked_by_idx', 'jobs_running_key_idx', 'jobs_running_tenant_idx',
                         'jobs_suspect_idx', 'jobs_tenant_created_idx')
loop
    execute v_part;
end loop;

alter table jq.settings
    add column waiting_horizon interval not null default '5 minutes',
    add column rotation_move_limit integer not null default 2000,
    add constraint settings_waiting_horizon_range
        check (waiting_horizon between interval '10 seconds' and interval '1 day'),
    add constraint settings_rotation_move_limit_range check (rotation_move_limit between 10 and 100000);

create table jq.storage_generations (
    generation    smallint primary key,
    truncated_at  timestamptz,
    truncations   bigint not null default 0,
    moved         bigint not null default 0,
    refused       integer not null default 0,
    constraint storage_generations_valid check (generation between 0 and 2)
);
comment on table jq.storage_generations is
    'One row per generation of jq.jobs: when jq_storage_rotate last truncated it, how many times, how many live rows it moved out first, and how many of its lock requests in a row were refused (busy).';
insert into jq.storage_generations (generation) values (0), (1), (2);

insert into jq.jobs (id, queue, type, payload, priority, run_at, status, locked_until, locked_by, attempts, max_attempts, idempotency_key, tenant, last_error, created_at, cancel_requested, concurrency_key, deferred, orphaned, attempt_log, metadata,
                    generation)
select j.id, j.queue, j.type, j.payload, j.priority, j.run_at, j.status, j.locked_until, j.locked_by, j.attempts, j.max_attempts, j.idempotency_key, j.tenant, j.last_error, j.created_at, j.cancel_requested, j.concurrency_key, j.deferred, j.orphaned, j.attempt_log, j.metadata,
       case when j.status = 'pending' and j.deferred
                 and j.run_at > now() + (select s.waiting_horizon from jq.settings s) then 3
            else jq._storage_slot(statement_timestamp()) end
  from jq.jobs_0012 j;
drop table jq.jobs_0012;

alter type jq.claim_job add attribute id uuid, add attribute generation smallint;

insert into jq.migrations (version, release, name) values (13, '0.6.0', 'job_generations');
end
$migration$;
