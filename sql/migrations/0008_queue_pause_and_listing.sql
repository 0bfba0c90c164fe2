-- Migration 8 (release 0.5.0): pausing queues, and listing jobs for operators.
--
--   jq.queue_pauses      one row per paused queue (type null) or paused
--                        (queue, type): jq_claim skips them from its next
--                        call on; written by jq_queue_pause / jq_queue_resume
--   listing indexes      (created_at, id) on jq.jobs, jq.dead_jobs and every
--                        partition of jq.job_history: jq_jobs pages newest or
--                        oldest first by keyset, one index walk per source
--                        (history: one per day partition, merged), never a
--                        sort of the whole table nor a sequential scan; the
--                        same per tenant, and dead payloads by GIN
--   jq_stats             gains paused (the whole queue is paused): dropped
--                        here, recreated by functions/lookup.sql
--   claim steps          _claim_quotas, _claim_quotas_plain and _claim_take
--                        gain p_skip_types (the paused types of the queue)
do $migration$
begin
if not jq._migration_pending(8) then
    return;
end if;

create table jq.queue_pauses (
    queue     text not null,
    type      text,
    paused_at timestamptz not null,
    paused_by text not null,
    constraint queue_pauses_queue_format check (jq._is_queue_name(queue)),
    constraint queue_pauses_type_length check (char_length(type) between 1 and 128),
    constraint queue_pauses_paused_by_length check (char_length(paused_by) between 1 and 255)
);
comment on table jq.queue_pauses is
    'Paused queues (type null: the whole queue) and paused (queue, type) pairs; jq_claim skips them. Written by jq_queue_pause / jq_queue_resume.';
-- One pause per queue and per (queue, type); also the claim's one probe per call.
create unique index queue_pauses_key_idx on jq.queue_pauses (queue, (coalesce(type, '')));

-- Keyset listing by creation time (jq_jobs). On jq.job_history the index is
-- made on every partition, present and future (partitions of a partitioned
-- index follow the parent).
create index jobs_created_idx on jq.jobs (created_at, id);
create index dead_jobs_created_idx on jq.dead_jobs (created_at, id);
create index job_history_created_idx on jq.job_history (created_at, id);
-- A tenant is one of thousands: walking the time order for its rows would
-- read most of a table, so its pages have an index of their own (jobs
-- without a tenant stay out, as in the claim's running-tenant index).
create index jobs_tenant_created_idx on jq.jobs (tenant, created_at, id) where tenant is not null;
create index dead_jobs_tenant_created_idx on jq.dead_jobs (tenant, created_at, id) where tenant is not null;
create index job_history_tenant_created_idx on jq.job_history (tenant, created_at, id) where tenant is not null;
-- Payload containment (@>) on dead jobs; written only when a job dies. Live
-- jobs get none: a GIN entry per key on every enqueue is not worth it.
create index dead_jobs_payload_idx on jq.dead_jobs using gin (payload jsonb_path_ops);

drop function if exists jq.jq_stats();
drop function if exists jq._claim_quotas(text, text[], timestamptz, boolean, integer, jq.claim_group[], jq.claim_job[]);
drop function if exists jq._claim_quotas_plain(text, text[], timestamptz, integer, jq.claim_group[], jq.claim_job[]);
drop function if exists jq._claim_take(text, text[], timestamptz, jq.claim_group[], jq.claim_job[]);

insert into jq.migrations (version, release, name) values (8, '0.5.0', 'queue_pause_and_listing');
end
$migration$;
