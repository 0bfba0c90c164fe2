-- What the operator console's job page shows beside jq_status: the payload,
-- the keys and the lease, wherever the job is. History rows keep no payload
-- and no lease (a finished job has neither).
create or replace function jq.jq_job_detail(p_job_id uuid)
returns table (
    job_id          uuid,
    location        text,
    payload         jsonb,
    idempotency_key text,
    concurrency_key text,
    lease_holder    text,
    lease_until     timestamptz)
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select j.id, 'live', j.payload, j.idempotency_key, j.concurrency_key, j.locked_by, j.locked_until
      from jq.jobs j where j.id = p_job_id
    union all
    select d.id, 'dead', d.payload, d.idempotency_key, d.concurrency_key, null, null
      from jq.dead_jobs d where d.id = p_job_id
    union all
    select h.id, 'history', null, h.idempotency_key, null, null, null
      from jq.job_history h where h.id = p_job_id
     limit 1
$$;
comment on function jq.jq_job_detail(uuid) is
    'A job''s payload, keys and lease wherever it is (job_id) -> (job_id, location live|dead|history, payload, idempotency_key, concurrency_key, lease_holder, lease_until); history keeps no payload; no row if unknown.';

-- "Discard this group" on the console's dead-letter page: delete the dead jobs
-- of one group as jq_dead_groups shows it, (type, error fingerprint), that
-- failed since p_since (null: ever), at most p_limit (1..10000) per call,
-- oldest first, rows locked by another transaction skipped: call again until
-- it returns 0. Exact fingerprint only (not jq_retry_dead's looser matching):
-- deleting is for good, so it takes exactly the group the operator saw.
create or replace function jq.jq_dead_discard_group(
    p_type  text,
    p_error text,
    p_since timestamptz default null,
    p_limit integer default 1000)
returns integer
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
    v_count integer;
begin
    perform jq._check_not_null(p_type, 'p_type');
    perform jq._check_not_null(p_error, 'p_error');
    if p_limit is null or p_limit not between 1 and 10000 then
        perform jq._raise_bad_argument(
            format('p_limit must be between 1 and 10000, got %s', coalesce(p_limit::text, 'null')), '22023');
    end if;
    with picked as (
        select d.id from jq.dead_jobs d
         where d.type = p_type and d.error_fingerprint = p_error
           and (p_since is null or d.failed_at >= p_since)
         order by d.failed_at
         limit p_limit
           for update skip locked
    )
    delete from jq.dead_jobs d using picked where d.id = picked.id;
    get diagnostics v_count = row_count;
    perform jq._audit('dead_discard_group',
                      jsonb_build_object('type', p_type, 'error', p_error, 'since', p_since, 'limit', p_limit),
                      v_count);
    return v_count;
end
$$;
comment on function jq.jq_dead_discard_group(text, text, timestamptz, integer) is
    'Delete one dead-letter group (type, error fingerprint exactly as jq_dead_groups shows it) failed since p_since, at most p_limit (1..10000) per call, oldest first -> how many; repeat until 0. Audited as dead_discard_group.';
