-- The bounds a client should know before it calls: what jq.settings holds
-- now (an admin may change it), and the check of jq_complete's results.
--
--   max_result_bytes  54000 program_limit_exceeded
--                     "result of job <id> is N bytes; the limit is M bytes"
--
-- A result's size is the bytes of its JSON text as PostgreSQL prints it
-- (octet_length(result::text)): a measure any client can approach by
-- encoding its value as JSON (UTF-8, ", " and ": " separators).

-- The current bounds, read by workers when they start and reconnect, so that
-- one oversized result fails its own attempt rather than a whole batch.
create or replace function jq.jq_limits()
returns table (
    max_payload_bytes integer,
    max_payload_depth integer,
    max_error_length  integer,
    max_result_bytes  integer)
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select s.max_payload_bytes, s.max_payload_depth, s.max_error_length, s.max_result_bytes from jq.settings s
$$;
comment on function jq.jq_limits() is
    'The bounds in jq.settings now -> (max_payload_bytes, max_payload_depth, max_error_length, max_result_bytes): payload size and nesting refused over the limit, error text cut, results refused over the limit (bytes of their JSON text).';

-- Refuses jq_complete's results when they are not parallel to its job ids
-- (22023) or one is over max_result_bytes (54000, naming the first such job
-- and both sizes). Null results: nothing to check.
create or replace function jq._check_results(p_job_ids uuid[], p_results jsonb[])
returns void
language plpgsql
stable
as $$
declare
    v_job   uuid;
    v_bytes integer;
    v_limit integer;
begin
    if p_results is null then
        return;
    end if;
    if cardinality(p_results) <> cardinality(p_job_ids) then
        perform jq._raise_bad_argument(
            format('results has %s elements and job_ids %s: results[i] is the result of job_ids[i]',
                   cardinality(p_results), cardinality(p_job_ids)),
            '22023', 'Pass one result per job id (null for none), or null for no results at all.');
    end if;
    select i.id, octet_length(i.result::text), s.max_result_bytes into v_job, v_bytes, v_limit
      from unnest(p_job_ids, p_results) with ordinality as i(id, result, ord), jq.settings s
     where i.result is not null and octet_length(i.result::text) > s.max_result_bytes
     order by i.ord
     limit 1;
    if v_job is not null then
        raise exception 'result of job % is % bytes; the limit is % bytes (jq.settings.max_result_bytes)',
                        v_job, v_bytes, v_limit
            using errcode = '54000',
                  hint = 'Store large results elsewhere and return a reference; an admin may raise jq.settings.max_result_bytes.';
    end if;
end
$$;
