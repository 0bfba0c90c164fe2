-- Dead letters: jobs that used up their attempts, grouped so that 20,000 of
-- them can be understood and requeued as a handful of groups.

-- The dead-letter groups (type, normalised error) of the jobs that failed at
-- or after p_since, of type p_type (nulls: all), that an error text p_error
-- selects (null: every group). A group matches when p_error is
--   1. its fingerprint, exactly (what jq_dead_groups lists), or
--   2. a raw error message of the group: p_error's own fingerprint is the
--      group's (so any message of that shape, whatever its ids), or
--   3. a case-insensitive substring of the fingerprint or of the first line
--      of the group's sample error (the newest): 'HTTP 503' selects
--      'RuntimeError: HTTP 503 from hooks.example.com for ?', and 'for 123'
--      the group whose newest job said so. Only the first line, since the
--      traceback below it names files and frames that every group shares.
--      Compared with strpos, not LIKE: '%' and '_' are plain characters.
-- Rule 3 is the one people type (the requirements' own example); rules 1
-- and 2 keep pasted fingerprints and log lines exact.
-- Cost: one pass over the window's rows of dead_jobs_group_idx (type,
-- error_fingerprint, failed_at) to count, then one backward probe of it per
-- group for the sample.
create or replace function jq._dead_groups_matching(p_since timestamptz, p_type text, p_error text)
returns table (
    type            text,
    error           text,
    count           bigint,
    first_failed_at timestamptz,
    last_failed_at  timestamptz,
    sample_error    text)
language sql
stable
as $$
    select g.type, g.error, g.count, g.first_failed_at, g.last_failed_at, s.sample_error
      from (select d.type, d.error_fingerprint as error, count(*) as count,
                   min(d.failed_at) as first_failed_at, max(d.failed_at) as last_failed_at
              from jq.dead_jobs d
             where (p_since is null or d.failed_at >= p_since)
               and (p_type is null or d.type = p_type)
             group by d.type, d.error_fingerprint) g
     cross join lateral (
        select d.last_error as sample_error
          from jq.dead_jobs d
         where d.type = g.type and d.error_fingerprint = g.error
           and (p_since is null or d.failed_at >= p_since)
         order by d.failed_at desc
         limit 1) s
     where p_error is null
        or g.error = p_error
        or g.error = jq.error_fingerprint(p_error)
        or strpos(lower(g.error), lower(p_error)) > 0
        or strpos(lower(split_part(s.sample_error, E'\n', 1)), lower(p_error)) > 0
$$;

-- A blank error filter would match every group by rule 3: refused.
create or replace function jq._check_error_filter(p_error text)
returns void
language plpgsql
immutable
as $$
begin
    if p_error is not null and btrim(p_error) = '' then
        raise exception 'error filter is blank' using errcode = '22023',
            hint = 'Pass a fingerprint, a raw message or a part of one; null for every error.';
    end if;
end
$$;

-- Dead jobs grouped by type and normalised error (jq.error_fingerprint),
-- largest group first. p_since, p_type and p_error narrow it (null = all);
-- p_error selects groups as jq_retry_dead does (jq._dead_groups_matching),
-- so an operator sees what a retry would take.
create or replace function jq.jq_dead_groups(
    p_since timestamptz default null,
    p_type  text default null,
    p_error text default null)
returns table (
    type            text,
    error           text,
    count           bigint,
    first_failed_at timestamptz,
    last_failed_at  timestamptz,
    sample_error    text)
language plpgsql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
begin
    perform jq._check_error_filter(p_error);
    return query
    select g.type, g.error, g.count, g.first_failed_at, g.last_failed_at, g.sample_error
      from jq._dead_groups_matching(p_since, p_type, p_error) g
     order by g.count desc, g.type, g.error;
end
$$;
comment on function jq.jq_dead_groups(timestamptz, text, text) is
    'Dead jobs grouped (since, type, error) -> (type, error fingerprint, count, first_failed_at, last_failed_at, sample_error), largest first. error selects a group when it is the fingerprint, a raw message of the group (same fingerprint), or a case-insensitive substring of the fingerprint or of the sample error''s first line.';

-- Requeues dead jobs of the groups p_type / p_error select (as in
-- jq_dead_groups; nulls: every type, every error), failed at or after
-- p_since, at most p_limit (oldest failures first). Attempts restart from
-- zero; the attempt log stays. Returns how many (0 when nothing matched:
-- pyjq's CLI and HTTP then list the closest groups). Audited as retry_dead.
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
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_now    timestamptz := jq._now();
    v_types  text[];
    v_errors text[];
    v_ids    uuid[];
    v_count  integer := 0;
begin
    if p_limit is not null and p_limit < 1 then
        raise exception 'limit % is out of range', p_limit
            using errcode = '22023', hint = 'Pass a positive limit, or null for every matching job.';
    end if;
    perform jq._check_error_filter(p_error);
    select array_agg(g.type), array_agg(g.error) into v_types, v_errors
      from jq._dead_groups_matching(p_since, p_type, p_error) g;
    -- Collect the ids first and move them with id = any(...): a join against
    -- the chosen rows would be planned from jq.dead_jobs' statistics, which
    -- are often far off (the table swings between empty and tens of
    -- thousands), and a nested loop over 20,000 rows took minutes. Here the
    -- few matched groups drive probes of dead_jobs_group_idx.
    if v_types is not null then
        select array_agg(c.id) into v_ids
          from (select d.id
                  from unnest(v_types, v_errors) as g(type, error)
                  join jq.dead_jobs d on d.type = g.type and d.error_fingerprint = g.error
                 where (p_since is null or d.failed_at >= p_since)
                 order by d.failed_at
                 limit p_limit
                   for update of d skip locked) c;
    end if;
    if v_ids is not null then
        v_count := jq._requeue_dead_jobs(v_ids, v_now);
    end if;
    perform jq._audit('retry_dead',
                      jsonb_strip_nulls(jsonb_build_object('type', p_type, 'error', p_error,
                                                           'since', p_since, 'limit', p_limit)),
                      v_count);
    return v_count;
end
$$;
comment on function jq.jq_retry_dead(text, text, timestamptz, integer) is
    'Requeue dead jobs (type, error, since, limit) of the groups jq_dead_groups(since, type, error) lists; attempts reset; audited; returns the number requeued, 0 when nothing matched.';
