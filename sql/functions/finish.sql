-- Finish: a worker reports on the jobs it leased. Every function here acts
-- only on jobs whose lease the calling worker still holds; a job whose lease
-- was reaped or taken by another worker is left alone and reported as such.

-- Deletes finished jobs from jq.jobs and records them in jq.job_history, by
-- the retire path every finisher takes (jq._retire_jobs), with what each
-- handler returned: p_results[i] is job p_job_ids[i]'s result (a null
-- element or a null array: none). A result over settings.max_result_bytes
-- refuses the whole call (54000, nothing changed): workers check the bound
-- first (jq_limits) and fail that attempt instead. Returns the ids it
-- completed.
create or replace function jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[] default null)
returns setof uuid
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The worker's hot path keeps generic plans (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now timestamptz := jq._now();
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    perform jq._check_results(p_job_ids, p_results);
    return query select * from jq._retire_jobs(p_job_ids, 'succeeded', null, v_now, p_worker, p_results);
end
$$;
comment on function jq.jq_complete(uuid[], text, jsonb[]) is
    'Complete jobs this worker holds (job_ids, worker, results parallel to job_ids or null): delete from jq.jobs, append to history as succeeded with each result; returns the ids completed. Jobs whose lease was lost are left alone; a result over settings.max_result_bytes refuses the call (54000).';

-- Records a failed attempt (also in the job's attempt log, the last 10 kept).
-- Returns (status, next_attempt_at):
--   failed_retrying  back to pending at now + retry_in, or jq.retry_delay(attempts)
--   dead             moved to jq.dead_jobs: attempts used up, or p_discard
--   cancelled        its cancellation had been requested
--   lease_lost       this worker no longer holds the job; nothing changed
create or replace function jq.jq_fail(
    p_job_id   uuid,
    p_worker   text,
    p_error    text default null,
    p_retry_in interval default null,
    p_discard  boolean default false)
returns table (status text, next_attempt_at timestamptz)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The worker's hot path keeps generic plans (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now   timestamptz := jq._now();
    v_job   jq.jobs;
    v_error text := jq._bounded_error(coalesce(nullif(btrim(p_error), ''), 'failed without an error message'));
    v_next  timestamptz;
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_id, 'job_id');
    if p_retry_in is not null and (p_retry_in < interval '0' or p_retry_in > interval '365 days') then
        raise exception 'retry_in % is out of range', p_retry_in
            using errcode = '22023', hint = 'retry_in is between 0 and 365 days, or null for the backoff policy.';
    end if;

    select * into v_job
      from jq.jobs j
     where j.id = p_job_id and j.status = 'processing' and j.locked_by = p_worker
       for update;
    if not found then
        return query select 'lease_lost'::text, null::timestamptz;
        return;
    end if;

    -- This attempt joins the job's attempt log (jq_job_attempts): in the
    -- retry path's own UPDATE; before a job leaves jq.jobs, by one more
    -- statement (once in its life), and jq._retire_jobs carries it along.
    if v_job.cancel_requested or coalesce(p_discard, false) or v_job.attempts >= v_job.max_attempts then
        update jq.jobs j
           set attempt_log = jq._attempt_log_append(j.attempt_log, j.attempts, v_now, p_worker, v_error)
         where j.id = p_job_id;
    end if;

    if v_job.cancel_requested then
        perform jq._retire(array[p_job_id], 'cancelled', v_error, v_now);
        return query select 'cancelled'::text, null::timestamptz;
    elsif coalesce(p_discard, false) or v_job.attempts >= v_job.max_attempts then
        perform jq._retire(array[p_job_id], 'dead', v_error, v_now);
        return query select 'dead'::text, null::timestamptz;
    else
        -- At the latest where every client can still read it (run_at's range in jq_enqueue).
        v_next := least(v_now + coalesce(p_retry_in, jq.retry_delay(v_job.attempts)), '9999-12-30 00:00:00+00');
        update jq.jobs
           set status = 'pending', locked_by = null, locked_until = null,
               run_at = v_next, deferred = v_next > v_now, last_error = v_error,
               attempt_log = jq._attempt_log_append(attempt_log, attempts, v_now, p_worker, v_error)
         where id = p_job_id;
        return query select 'failed_retrying'::text, v_next;
    end if;
end
$$;
comment on function jq.jq_fail(uuid, text, text, interval, boolean) is
    'Record a failed attempt (job_id, worker, error, retry_in, discard): retry after retry_in or jq.retry_delay(attempts), or dead-letter when attempts are used up or discard; -> (status failed_retrying|dead|cancelled|lease_lost, next_attempt_at).';

-- Extends the leases this worker still holds. One row per job asked about:
-- ok, lost (the worker must abandon it: its result will not be accepted), or
-- cancel_requested (lease extended; the handler should stop).
create or replace function jq.jq_heartbeat(
    p_job_ids uuid[],
    p_worker  text,
    p_lease   interval default '5 minutes')
returns table (job_id uuid, state text)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The worker's hot path keeps generic plans (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now timestamptz := jq._now();
begin
    perform jq._check_worker(p_worker);
    perform jq._check_lease(p_lease);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    return query
    with asked as (
        select distinct a.id from unnest(p_job_ids) as a(id) where a.id is not null
    ), extended as (
        update jq.jobs j
           set locked_until = v_now + p_lease
          from asked a
         where j.id = a.id and j.status = 'processing' and j.locked_by = p_worker
        returning j.id, j.cancel_requested
    )
    select a.id,
           case when e.id is null then 'lost'
                when e.cancel_requested then 'cancel_requested'
                else 'ok' end
      from asked a
      left join extended e on e.id = a.id;
end
$$;
comment on function jq.jq_heartbeat(uuid[], text, interval) is
    'Extend leases this worker holds (job_ids, worker, lease) -> (job_id, state ok|lost|cancel_requested) per job.';

-- Hands leased jobs back unrun (graceful shutdown): pending again, with the
-- attempt not counted; a job whose cancellation was requested is cancelled
-- instead. Returns (job_id, status released|cancelled) per job handed back.
create or replace function jq.jq_release(p_job_ids uuid[], p_worker text)
returns table (job_id uuid, status text)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The worker's hot path keeps generic plans (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now       timestamptz := jq._now();
    v_held      uuid[];
    v_cancelled uuid[];
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    select array_agg(j.id), array_agg(j.id) filter (where j.cancel_requested)
      into v_held, v_cancelled
      from (select j.id, j.cancel_requested from jq.jobs j
             where j.id = any(p_job_ids) and j.status = 'processing' and j.locked_by = p_worker
             order by j.id
               for update) j;
    if v_held is null then
        return;
    end if;
    if v_cancelled is not null then
        perform jq._retire(v_cancelled, 'cancelled', 'cancelled while its worker shut down', v_now);
    end if;
    return query
    with released as (
        update jq.jobs j
           set status = 'pending', locked_by = null, locked_until = null,
               attempts = greatest(j.attempts - 1, 0), deferred = j.run_at > v_now
         where j.id = any(v_held) and j.status = 'processing'
        returning j.id
    )
    select r.id, 'released'::text from released r
    union all
    select c.id, 'cancelled'::text from unnest(v_cancelled) as c(id);
end
$$;
comment on function jq.jq_release(uuid[], text) is
    'Hand leased jobs back unrun (job_ids, worker), e.g. on shutdown: pending again, attempt not counted; cancellation-requested jobs are cancelled. -> (job_id, status released|cancelled).';
