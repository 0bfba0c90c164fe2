-- Migration 13 (release 0.6.0): live jobs and waiting marks stored in
-- generations that jq_tick empties and truncates (docs/storage.md).
--
--   jq.storage_turns   a sequence: how many times the current generation
--                      has changed. jq.jobs.generation and
--                      jq.queue_waiters.generation default to it modulo 3
--                      (jq._storage_generation), so every insert writes into
--                      the current generation without reading a table.
--   jq.jobs            becomes a table partitioned by list on generation:
--                      jq.jobs_g0, _g1, _g2 take new rows in turn, and
--                      jq.jobs_waiting (3) keeps jobs due later than
--                      settings.waiting_horizon. The primary key becomes
--                      (id, generation) (a key of a partitioned table holds
--                      its partition key); ids stay unique, jq makes them
--                      with gen_random_uuid(). Every column, CHECK, index and
--                      storage setting is kept; each partition has the
--                      fillfactor and autovacuum settings jq.jobs had.
--   jq.queue_waiters   partitioned the same way (no waiting partition).
--   jq.storage_generations  one row per generation: since when it is (or
--                      was last) current, when it was last truncated, how
--                      many times, how many rows moved out of it first.
--   jq.tick_state      when jq_tick last ran the maintenance, and the
--                      sequence jq.tick_due when the next call is due.
--   jq.settings        gains the storage policy and jq_tick's cadence
--                      (each column's comment says what it is for).
--   jq.claim_job       (the claim's taken jobs) gains id and generation: a
--                      ctid names a row only within one partition.
--
-- Every live job and mark is copied into generation 0 with everything it
-- holds: a call of the previous release that the install caught half-way
-- finds rows by ctid, which names a row only within one partition. jq_tick
-- moves jobs due beyond the horizon to jobs_waiting afterwards. The copy
-- runs under the install's locks (docs/operations.md).
do $migration$
declare
    v_part text;
begin
if not jq._migration_pending(13) then
    return;
end if;

create sequence jq.storage_turns as bigint minvalue 0 start with 0;
perform setval('jq.storage_turns', 0, true);  -- read as 0, not null, before the first turn
comment on sequence jq.storage_turns is
    'How many times jq_tick made the next generation current; jq._storage_generation takes it modulo 3.';

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
    generation       smallint not null default jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)),
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
    'Live jobs only (pending or processing), in generations (jobs_g0..g2, jobs_waiting) that jq_tick truncates: read it through the jq_* functions, a snapshot older than a truncation misses rows.';
comment on column jq.jobs.metadata is
    'Headers of the job (an object of strings), e.g. the W3C trace context: traceparent, tracestate. Null when none.';
comment on column jq.jobs.generation is
    'Where the row is stored: 0..2 the generation current when it was written (jq._storage_generation), 3 jobs_waiting (due later than settings.waiting_horizon). Storage only: no rule reads it.';

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
    'Jobs due later than settings.waiting_horizon, out of the generations'' way; jq_tick moves them back when they come within it.';

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
    add column rotate_storage boolean not null default true,
    add column waiting_horizon interval not null default '5 minutes',
    add column rotation_turn_after interval not null default '2 seconds',
    add column rotation_turn_bytes integer not null default 2097152,
    add column rotation_min_bytes integer not null default 262144,
    add column rotation_move_batch integer not null default 500,
    add column rotation_move_limit integer not null default 2000,
    add column rotation_backlog_wait interval not null default '5 seconds',
    add column tick_lock_wait interval not null default '50 milliseconds',
    add column tick_interval interval not null default '250 milliseconds',
    add column maintain_interval interval not null default '1 minute',
    add constraint settings_waiting_horizon_range
        check (waiting_horizon between interval '10 seconds' and interval '1 day'),
    add constraint settings_rotation_turn_after_range
        check (rotation_turn_after between interval '100 milliseconds' and interval '1 hour'),
    add constraint settings_rotation_turn_bytes_range check (rotation_turn_bytes between 0 and 1073741824),
    add constraint settings_rotation_min_bytes_range check (rotation_min_bytes between 0 and 1073741824),
    add constraint settings_rotation_move_batch_range check (rotation_move_batch between 10 and 100000),
    add constraint settings_rotation_move_limit_range check (rotation_move_limit >= rotation_move_batch
                                                             and rotation_move_limit <= 1000000),
    add constraint settings_rotation_backlog_wait_range
        check (rotation_backlog_wait between interval '0' and interval '1 day'),
    add constraint settings_tick_lock_wait_range
        check (tick_lock_wait between interval '0' and interval '1 second'),
    add constraint settings_tick_interval_range
        check (tick_interval between interval '10 milliseconds' and interval '1 minute'),
    add constraint settings_maintain_interval_range
        check (maintain_interval between interval '1 second' and interval '1 day');
comment on column jq.settings.rotate_storage is
    'Whether jq_tick rotates the generations of jq.jobs; off, every row stays in the current generation and is vacuumed as a plain table (a held snapshot bloats it).';
comment on column jq.settings.waiting_horizon is
    'A job deferred beyond this when its generation is emptied moves to jq.jobs_waiting, out of the rotation, and comes back when due within it.';
comment on column jq.settings.rotation_turn_after is
    'The next generation becomes current once the current one is this old and holds rotation_min_bytes: how long a held snapshot keeps dead row versions.';
comment on column jq.settings.rotation_turn_bytes is
    'The next generation becomes current as soon as the current one''s heap reaches this many bytes, however young; 0: by age only.';
comment on column jq.settings.rotation_min_bytes is
    'A generation smaller than this on disk (heap, indexes, TOAST) stays current: a truncation costs more than a few hundred kB of dead rows.';
comment on column jq.settings.rotation_move_batch is
    'At most this many live rows move out of a generation per jq_tick call, so its lock stays short; the rest move on the next calls.';
comment on column jq.settings.rotation_move_limit is
    'A generation holding more live rows than this is a backlog, left to the claims while they take from it.';
comment on column jq.settings.rotation_backlog_wait is
    'Once the claims have taken nothing from a backlog for this long (a paused queue, a tenant at its cap, no worker), jq_tick moves its rows in batches.';
comment on column jq.settings.tick_lock_wait is
    'How long jq_tick keeps trying, without queueing, for a partition''s lock before it leaves the partition for the next call.';
comment on column jq.settings.tick_interval is
    'How soon jq_tick asks to be called again while jobs flow or a partition was busy.';
comment on column jq.settings.maintain_interval is
    'How often jq_tick runs the maintenance (jq_maintain: history partitions, retention, expired keys, gone workers).';

create table jq.storage_generations (
    generation         smallint primary key,
    current_since      timestamptz not null default now(),
    truncated_at       timestamptz,
    truncations        bigint not null default 0,
    moved              bigint not null default 0,
    marks_truncated_at timestamptz,
    marks_truncations  bigint not null default 0,
    marks_moved        bigint not null default 0,
    taken              bigint,
    taken_at           timestamptz,
    constraint storage_generations_valid check (generation between 0 and 2)
);
comment on table jq.storage_generations is
    'One row per generation of jq.jobs and jq.queue_waiters: since when it is (or last was) current, when jq_tick last truncated each of its partitions, how many times, how many live rows it moved out first, and (while it holds a backlog) how many rows the claims had taken from it by the statistics and when that last grew.';
insert into jq.storage_generations (generation) values (0), (1), (2);

create table jq.tick_state (
    singleton     boolean primary key default true,
    maintained_at timestamptz,
    constraint tick_state_singleton check (singleton)
);
comment on table jq.tick_state is 'When jq_tick last ran the maintenance (settings.maintain_interval).';
insert into jq.tick_state default values;
create sequence jq.tick_due as bigint minvalue 0 start with 0;
comment on sequence jq.tick_due is
    'When the next jq_tick is due, in milliseconds since the epoch: a call before then is answered at once. A sequence, so that setting it leaves no dead row version.';

insert into jq.jobs (id, queue, type, payload, priority, run_at, status, locked_until, locked_by, attempts, max_attempts, idempotency_key, tenant, last_error, created_at, cancel_requested, concurrency_key, deferred, orphaned, attempt_log, metadata,
                    generation)
select j.id, j.queue, j.type, j.payload, j.priority, j.run_at, j.status, j.locked_until, j.locked_by, j.attempts, j.max_attempts, j.idempotency_key, j.tenant, j.last_error, j.created_at, j.cancel_requested, j.concurrency_key, j.deferred, j.orphaned, j.attempt_log, j.metadata,
       0
  from jq.jobs_0012 j;
drop table jq.jobs_0012;

alter type jq.claim_job add attribute id uuid, add attribute generation smallint;

-- The waiting workers' marks, partitioned the same way: they churn one
-- insert and one delete per wake-up, and every enqueue reads them.
lock table jq.queue_waiters in access exclusive mode;
alter table jq.queue_waiters rename to queue_waiters_0012;
alter table jq.queue_waiters_0012 drop constraint queue_waiters_pkey;
create table jq.queue_waiters (
    queue       text not null,
    worker      text not null,
    backend_pid integer not null,
    since       timestamptz not null,
    generation  smallint not null default jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)),
    constraint queue_waiters_pkey primary key (queue, worker, generation)
) partition by list (generation);
comment on table jq.queue_waiters is 'Workers waiting for work on a queue (jq_set_waiting); the NOTIFY trigger wakes only these queues.';
comment on column jq.queue_waiters.generation is
    'Where the mark is stored, as jq.jobs.generation; jq_tick moves marks out of a generation and truncates it. Storage only: no rule reads it.';
foreach v_part in array array['g0', 'g1', 'g2'] loop
    execute format('create table jq.%I partition of jq.queue_waiters for values in (%s)',
                   'queue_waiters_' || v_part, substr(v_part, 2)::integer);
end loop;
insert into jq.queue_waiters (queue, worker, backend_pid, since, generation)
select w.queue, w.worker, w.backend_pid, w.since, 0 from jq.queue_waiters_0012 w;
drop table jq.queue_waiters_0012;

insert into jq.migrations (version, release, name) values (13, '0.6.0', 'storage_generations');
end
$migration$;
