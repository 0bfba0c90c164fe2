-- Per-attempt errors: each failed attempt of a job (when, which worker, the
-- error), not only the last one. jq_fail appends to the job's attempt_log in
-- the UPDATE it runs anyway (no extra statement on the retry path), and
-- jq._orphan_jobs (workers.sql) each attempt lost with its worker; the list
-- travels with the job into jq.dead_jobs and jq.job_history.

-- Characters of one attempt's error kept in the log: its head (the
-- 'Type: message' line and the first frames) and its tail (the innermost
-- frames, where the error was raised). jq.jobs.last_error keeps the latest
-- error at full length.
create or replace function jq._attempt_error(p_error text)
returns text
language sql
immutable
as $$
    select case when char_length(p_error) <= 2000 then p_error
                else left(p_error, 1000) || E'\n... [cut] ...\n' || right(p_error, 985) end
$$;

-- The attempt log with one more failed attempt, keeping the last 10. One
-- expression, so that the planner inlines it into jq_fail's UPDATE (stable
-- like jsonb_build_object, or it would not be inlined); a subquery over the
-- array's elements cost ten times as much.
create or replace function jq._attempt_log_append(
    p_log jsonb, p_attempt integer, p_at timestamptz, p_worker text, p_error text)
returns jsonb
language sql
stable
as $$
    select jsonb_path_query_array(
               coalesce(p_log, '[]'::jsonb)
               || jsonb_build_array(jsonb_build_object('attempt', p_attempt, 'at', p_at, 'worker', p_worker,
                                                       'error', jq._attempt_error(p_error))),
               '$[last - 9 to last]')
$$;

-- The failed attempts of one job wherever it is (live, dead, history),
-- oldest first. A job written before 0.5.0 has no log: its last_error is
-- shown as its last attempt (failed_at known only for a dead job, worker
-- unknown). No row for an unknown job or one that never failed.
create or replace function jq.jq_job_attempts(p_job_id uuid)
returns table (attempt integer, failed_at timestamptz, worker text, error text)
language plpgsql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
begin
    perform jq._check_not_null(p_job_id, 'job_id');
    return query
    with found as (
        select s.log, s.last_error, s.attempts, s.failed_at
          from (select 1 as place, j.attempt_log as log, j.last_error, j.attempts::integer as attempts,
                       null::timestamptz as failed_at
                  from jq.jobs j where j.id = p_job_id
                union all
                select 2, d.attempt_log, d.last_error, d.attempts::integer, d.failed_at
                  from jq.dead_jobs d where d.id = p_job_id
                union all
                select 3, h.attempt_log, h.last_error, h.attempts::integer, null
                  from jq.job_history h where h.id = p_job_id) s
         order by s.place
         limit 1
    )
    select a.attempt, a.failed_at, a.worker, a.error
      from (select (e.entry ->> 'attempt')::integer as attempt, (e.entry ->> 'at')::timestamptz as failed_at,
                   e.entry ->> 'worker' as worker, e.entry ->> 'error' as error, e.ord
              from found f
             cross join lateral jsonb_array_elements(f.log) with ordinality as e(entry, ord)
             where f.log is not null
            union all
            select f.attempts, f.failed_at, null, f.last_error, 0
              from found f
             where f.log is null and f.last_error is not null) a
     order by a.ord;
end
$$;
comment on function jq.jq_job_attempts(uuid) is
    'Failed attempts of a job wherever it is (job_id) -> (attempt, failed_at, worker, error), oldest first, the last 10 kept (attempts lost with their worker included, their cause as the error); a job from before 0.5.0 shows its last_error as its last attempt.';
