-- Dead letters: jobs that used up their attempts, grouped so that 20,000 of
-- them can be understood and requeued as a handful of groups.

-- Dead jobs grouped by type and normalised error (jq.error_fingerprint),
-- largest group first. p_since and p_type narrow it (null = all).
create or replace function jq.jq_dead_groups(
    p_since timestamptz default null,
    p_type  text default null)
returns table (
    type            text,
    error           text,
    count           bigint,
    first_failed_at timestamptz,
    last_failed_at  timestamptz,
    sample_error    text)
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
as $$
    select d.type, d.error_fingerprint, count(*), min(d.failed_at), max(d.failed_at),
           (array_agg(d.last_error order by d.failed_at desc))[1]
      from jq.dead_jobs d
     where (p_since is null or d.failed_at >= p_since)
       and (p_type is null or d.type = p_type)
     group by d.type, d.error_fingerprint
     order by count(*) desc, d.type, d.error_fingerprint
$$;
comment on function jq.jq_dead_groups(timestamptz, text) is
    'Dead jobs grouped (since, type) -> (type, error fingerprint, count, first_failed_at, last_failed_at, sample_error), largest first.';

-- Requeues dead jobs of a group: p_type (null = every type), p_error (a
-- fingerprint from jq_dead_groups or any raw error message of the group;
-- null = every error), failed at or after p_since, at most p_limit (oldest
-- failures first). Attempts restart from zero. Returns how many.
create or replace function jq.jq_retry_dead(
    p_type  text default null,
    p_error text default null,
    p_since timestamptz default null,
    p_limit integer default null)
returns integer
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
as $$
declare
    v_now         timestamptz := jq._now();
    v_fingerprint text := jq.error_fingerprint(p_error);
    v_ids         uuid[];
    v_count       integer;
begin
    if p_limit is not null and p_limit < 1 then
        raise exception 'limit % is out of range', p_limit
            using errcode = '22023', hint = 'Pass a positive limit, or null for every matching job.';
    end if;
    -- Collect the ids first and move them with id = any(...): a join against
    -- the chosen rows would be planned from jq.dead_jobs' statistics, which
    -- are often far off (the table swings between empty and tens of
    -- thousands), and a nested loop over 20,000 rows took minutes.
    select array_agg(c.id) into v_ids
      from (select d.id
              from jq.dead_jobs d
             where (p_type is null or d.type = p_type)
               and (p_error is null or d.error_fingerprint = v_fingerprint)
               and (p_since is null or d.failed_at >= p_since)
             order by d.failed_at
             limit p_limit
               for update skip locked) c;
    if v_ids is null then
        return 0;
    end if;
    with moved as (
        delete from jq.dead_jobs d where d.id = any(v_ids) returning d.*
    ), requeued as (
        insert into jq.jobs (id, queue, type, payload, priority, run_at, status, attempts, max_attempts,
                             idempotency_key, tenant, concurrency_key, last_error, created_at, metadata)
        select m.id, m.queue, m.type, m.payload, m.priority, v_now, 'pending', 0, m.max_attempts,
               m.idempotency_key, m.tenant, m.concurrency_key, m.last_error, m.created_at, m.metadata
          from moved m
        returning 1
    )
    select count(*) into v_count from requeued;
    return v_count;
end
$$;
comment on function jq.jq_retry_dead(text, text, timestamptz, integer) is
    'Requeue dead jobs (type, error, since, limit); error is a fingerprint or a raw message of the group; attempts reset; returns the number requeued.';
