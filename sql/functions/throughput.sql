-- Throughput over time, for the operator console's overview chart: per time
-- bucket, how many jobs finished and how. Read from the history partitions by
-- finished_at (the partition key: a window of a day reads one or two
-- partitions) and from jq.dead_jobs by failed_at (dead_jobs_failed_at_idx).

-- Buckets of p_bucket from p_since (aligned down to a multiple of p_bucket
-- since the Unix epoch) to now, every bucket listed, empty ones with zeros:
--   succeeded       jobs that succeeded in the bucket
--   cancelled       jobs cancelled in the bucket
--   dead            jobs that went dead in the bucket (used up their attempts or discarded)
--   failed_attempts attempts that failed, of the jobs that finished in the
--                   bucket: attempts - 1 of a succeeded job, all attempts of a
--                   dead one (a retry still waiting is not counted until its job ends)
-- The failure rate of a bucket is dead / (succeeded + dead).
create or replace function jq.jq_throughput(
    p_since  timestamptz default null,
    p_bucket interval default interval '1 hour')
returns table (
    bucket_start    timestamptz,
    succeeded       bigint,
    cancelled       bigint,
    dead            bigint,
    failed_attempts bigint)
language plpgsql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_now    timestamptz := jq._now();
    v_since  timestamptz := coalesce(p_since, v_now - interval '1 day');
    v_step   double precision;
    v_first  timestamptz;
begin
    if p_bucket is null or p_bucket < interval '1 second' or p_bucket > interval '31 days' then
        perform jq._raise_bad_argument(
            format('p_bucket must be between 1 second and 31 days, got %s', coalesce(p_bucket::text, 'null')),
            '22023', 'for example interval ''5 minutes'' or ''1 hour''');
    end if;
    if v_since > v_now then
        perform jq._raise_bad_argument(
            format('p_since must not be in the future (now %s, got %s)', v_now, v_since), '22023');
    end if;
    v_step := extract(epoch from p_bucket);
    if (extract(epoch from v_now) - extract(epoch from v_since)) / v_step > 10000 then
        perform jq._raise_bad_argument(
            format('p_since and p_bucket make more than 10000 buckets (%s to %s by %s)', v_since, v_now, p_bucket),
            '22023', 'use a larger p_bucket or a later p_since');
    end if;
    v_first := to_timestamp(floor(extract(epoch from v_since) / v_step) * v_step);

    return query
    with buckets as (
        select b as bucket_start
          from generate_series(v_first, v_now, p_bucket) b
    ), finished as (
        select to_timestamp(floor(extract(epoch from h.finished_at) / v_step) * v_step) as bucket_start,
               count(*) filter (where h.status = 'succeeded') as succeeded,
               count(*) filter (where h.status = 'cancelled') as cancelled,
               coalesce(sum(greatest(h.attempts - 1, 0)) filter (where h.status = 'succeeded'), 0) as failed
          from jq.job_history h
         where h.finished_at >= v_first and h.finished_at <= v_now
         group by 1
    ), buried as (
        select to_timestamp(floor(extract(epoch from d.failed_at) / v_step) * v_step) as bucket_start,
               count(*) as dead,
               sum(d.attempts) as failed
          from jq.dead_jobs d
         where d.failed_at >= v_first and d.failed_at <= v_now
         group by 1
    )
    select b.bucket_start,
           coalesce(f.succeeded, 0)::bigint,
           coalesce(f.cancelled, 0)::bigint,
           coalesce(d.dead, 0)::bigint,
           (coalesce(f.failed, 0) + coalesce(d.failed, 0))::bigint
      from buckets b
      left join finished f on f.bucket_start = b.bucket_start
      left join buried d on d.bucket_start = b.bucket_start
     order by b.bucket_start;
end
$$;
comment on function jq.jq_throughput(timestamptz, interval) is
    'Jobs finished per time bucket from p_since (default a day ago) to now: (bucket_start, succeeded, cancelled, dead, failed_attempts); every bucket listed. Reads job_history by its partition key finished_at and dead_jobs by failed_at.';
