-- Claim: workers lease runnable jobs.

-- Leases up to p_limit runnable jobs of one queue to p_worker for p_lease:
-- pending with run_at <= now, highest priority first, then oldest run_at;
-- only the given types when p_types is not null. Rows other workers are
-- claiming right now are skipped, never waited for. Each claim counts as an
-- attempt. Expired leases in the queue are reaped first (see _reap_expired).
create or replace function jq.jq_claim(
    p_queue  text,
    p_worker text,
    p_limit  integer default 1,
    p_lease  interval default '5 minutes',
    p_types  text[] default null)
returns table (
    id              uuid,
    queue           text,
    type            text,
    payload         jsonb,
    priority        smallint,
    attempts        smallint,
    max_attempts    smallint,
    tenant          text,
    run_at          timestamptz,
    created_at      timestamptz,
    locked_until    timestamptz,
    idempotency_key text,
    last_error      text)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
as $$
declare
    v_now timestamptz := jq._now();
begin
    if p_queue is null then
        raise exception 'queue must not be null' using errcode = '22004';
    end if;
    perform jq._check_worker(p_worker);
    perform jq._check_lease(p_lease);
    if p_limit is null or p_limit < 1 or p_limit > 1000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'Claim between 1 and 1000 jobs at a time.';
    end if;
    if p_types is not null and cardinality(p_types) = 0 then
        return;
    end if;

    perform jq._reap_expired(p_queue, v_now);

    -- The update finds the locked rows by ctid (a row we hold FOR UPDATE
    -- cannot move), saving a primary-key lookup per job.
    return query
    with picked as (
        select j.ctid
          from jq.jobs j
         where j.queue = p_queue
           and j.status = 'pending'
           and j.run_at <= v_now
           and (p_types is null or j.type = any(p_types))
         order by j.priority desc, j.run_at
         limit p_limit
           for update skip locked
    )
    update jq.jobs j
       set status = 'processing',
           locked_by = p_worker,
           locked_until = v_now + p_lease,
           attempts = j.attempts + 1
     where j.ctid = any (array(select picked.ctid from picked))
    returning j.id, j.queue, j.type, j.payload, j.priority, j.attempts, j.max_attempts, j.tenant,
              j.run_at, j.created_at, j.locked_until, j.idempotency_key, j.last_error;
end
$$;
comment on function jq.jq_claim(text, text, integer, interval, text[]) is
    'Lease up to limit runnable jobs of a queue (queue, worker, limit, lease, types): priority desc, then run_at; FOR UPDATE SKIP LOCKED; counts an attempt. Dead-letters jobs whose lease expired on their last attempt.';
