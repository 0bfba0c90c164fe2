-- Lookup and cancel: what producers and dashboards ask about single jobs,
-- and per-queue figures for autoscaling and monitoring.

-- One job wherever it is: jq.jobs, jq.dead_jobs or jq.job_history. Status is
-- the external vocabulary: scheduled, queued, running, failed_retrying,
-- succeeded, cancelled, dead. result: what the handler returned, for a
-- succeeded job (null otherwise, or when it returned nothing). No row for an
-- unknown id.
create or replace function jq.jq_status(p_job_id uuid)
returns table (
    job_id           uuid,
    type             text,
    queue            text,
    status           text,
    attempts         smallint,
    max_attempts     smallint,
    run_at           timestamptz,
    next_attempt_at  timestamptz,
    last_error       text,
    created_at       timestamptz,
    finished_at      timestamptz,
    tenant           text,
    priority         smallint,
    cancel_requested boolean,
    result           jsonb)
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select found.job_id, found.type, found.queue, found.status, found.attempts, found.max_attempts,
           found.run_at, found.next_attempt_at, found.last_error, found.created_at, found.finished_at,
           found.tenant, found.priority, found.cancel_requested, found.result
      from (
        select j.id as job_id, j.type, j.queue,
               case when j.status = 'processing' then 'running'
                    when j.attempts > 0 then 'failed_retrying'
                    when j.run_at > jq._now() then 'scheduled'
                    else 'queued' end as status,
               j.attempts, j.max_attempts, j.run_at,
               case when j.status = 'pending' and j.attempts > 0 then j.run_at end as next_attempt_at,
               j.last_error, j.created_at, null::timestamptz as finished_at,
               j.tenant, j.priority, j.cancel_requested, null::jsonb as result, 1 as source
          from jq.jobs j
         where j.id = p_job_id
        union all
        select d.id, d.type, d.queue, 'dead', d.attempts, d.max_attempts, d.run_at, null,
               d.last_error, d.created_at, d.failed_at, d.tenant, d.priority, false, null, 2
          from jq.dead_jobs d
         where d.id = p_job_id
        union all
        select h.id, h.type, h.queue, h.status, h.attempts, h.max_attempts, h.run_at, null,
               h.last_error, h.created_at, h.finished_at, h.tenant, null, false, h.result, 3
          from jq.job_history h
         where h.id = p_job_id
      ) found
     order by found.source, found.finished_at desc nulls first
     limit 1
$$;
comment on function jq.jq_status(uuid) is
    'Status of one job wherever it is (job_id) -> (job_id, type, queue, status scheduled|queued|running|failed_retrying|succeeded|cancelled|dead, attempts, max_attempts, run_at, next_attempt_at, last_error, created_at, finished_at, tenant, priority, cancel_requested, result); no row if unknown.';

-- Cancels a job. Pending or scheduled: removed and recorded as cancelled.
-- Running: cancellation requested (the worker learns it from jq_heartbeat;
-- the job ends cancelled if the worker fails or releases it, succeeded if it
-- completes anyway). Returns cancelled, running, finished or not_found.
create or replace function jq.jq_cancel(p_job_id uuid)
returns text
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_status text;
begin
    perform jq._check_not_null(p_job_id, 'job_id');
    select j.status into v_status from jq.jobs j where j.id = p_job_id for update;
    if v_status = 'pending' then
        perform jq._retire(array[p_job_id], 'cancelled', null, jq._now());
        return 'cancelled';
    elsif v_status = 'processing' then
        update jq.jobs set cancel_requested = true where id = p_job_id;
        return 'running';
    elsif exists (select 1 from jq.dead_jobs where id = p_job_id)
       or exists (select 1 from jq.job_history where id = p_job_id) then
        return 'finished';
    end if;
    return 'not_found';
end
$$;
comment on function jq.jq_cancel(uuid) is
    'Cancel a job (job_id) -> cancelled (it was pending or scheduled), running (cancellation requested; cooperative), finished, or not_found.';

-- Per queue: ready depth, scheduled (future run_at, incl. retries waiting),
-- running, age of the oldest ready job, dead count, and whether the whole
-- queue is paused (jq_queue_pause; a paused queue has its row even when it
-- holds no job). Workers scale on oldest_ready_age, not on CPU.
create or replace function jq.jq_stats()
returns table (
    queue            text,
    ready            bigint,
    scheduled        bigint,
    running          bigint,
    oldest_ready_age interval,
    dead             bigint,
    paused           boolean)
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    -- (select jq._now()): evaluated once per statement (an InitPlan); jq._now() itself is not inlined
    -- (its body has a sub-select), and called per row it cost about 1 s per 100,000 jobs.
    with live as (
        select j.queue,
               count(*) filter (where j.status = 'pending' and j.run_at <= (select jq._now())) as ready,
               count(*) filter (where j.status = 'pending' and j.run_at > (select jq._now())) as scheduled,
               count(*) filter (where j.status = 'processing') as running,
               (select jq._now()) - min(j.run_at) filter (where j.status = 'pending' and j.run_at <= (select jq._now()))
                   as oldest_ready_age
          from jq.jobs j
         group by j.queue
    ), buried as (
        select d.queue, count(*) as dead from jq.dead_jobs d group by d.queue
    ), counted as (
        select coalesce(l.queue, b.queue) as queue, coalesce(l.ready, 0) as ready,
               coalesce(l.scheduled, 0) as scheduled, coalesce(l.running, 0) as running,
               l.oldest_ready_age, coalesce(b.dead, 0) as dead
          from live l
          full join buried b on b.queue = l.queue
    ), paused as (
        select p.queue from jq.queue_pauses p where p.type is null
    )
    select coalesce(c.queue, p.queue), coalesce(c.ready, 0), coalesce(c.scheduled, 0), coalesce(c.running, 0),
           c.oldest_ready_age, coalesce(c.dead, 0), p.queue is not null
      from counted c
      full join paused p on p.queue = c.queue
     order by 1
$$;
comment on function jq.jq_stats() is
    'Per queue: (queue, ready, scheduled, running, oldest_ready_age, dead, paused: the whole queue is paused).';
