-- Claim: workers lease runnable jobs.
--
-- Order (docs/fairness.md, "The claim order"): priority first; among ready jobs of equal
-- priority, tenants take turns by weighted fair share; within a tenant, the
-- oldest run_at first. Jobs without a tenant are one tenant of their own. A
-- queue set plain (jq_queue_set_fair) orders by priority, then run_at, across
-- tenants. Caps hold in both: max_running per (queue, tenant) from
-- jq.tenant_policies and per (type, concurrency_key) from jq.key_limits.
--
-- Fair share is virtual-time round robin kept at claim time: a tenant's lane
-- in jq.fair_lanes has a pass that grows by 1/weight per job it is given; the
-- claim hands out its slots in order of pass + k/weight, lowest first. A
-- tenant that comes back after a pause (or is new) starts level with the
-- tenants being served, never with credit for the time it was away.
--
-- Cost: one index probe per (priority, tenant) group with due jobs in the
-- queue (jobs for later wait outside the claim index, deferred), then the
-- jobs handed out, read from each group's head: independent of how many jobs
-- the largest tenant has waiting.
--
-- The steps live in claim_steps.sql, one PL/pgSQL function each, and pass
-- the claim's state along as arrays of jq.claim_group (a ready group and its
-- tenant's figures) and jq.claim_job (a job taken). Why PL/pgSQL and not SQL
-- functions: SQL functions are inlined only when they are a single SELECT
-- without side effects (the take locks rows, the cap steps take advisory
-- locks) and otherwise are planned afresh on every call, while a PL/pgSQL
-- function's statements are planned once per session, generic under this
-- function's plan_cache_mode. A step call costs a few microseconds, and a
-- step's statements take fresh snapshots as before (the cap counts need
-- that). Measured against 0.3.0's one-body jq_claim, alternating the two
-- call by call in one database: 2-17% faster in every case tried (one to
-- 1,000 tenants, fair and plain, caps and keys), the same buffers per step
-- (fewer with key caps); figures in issue #13.
--
-- To change how claims store or pick jobs (e.g. the claim index), change the
-- step that reads it: ready groups and plain quotas walk jobs_claim_idx, the
-- take locks rows, the key caps and the lease find them by (id, generation).

-- Leases up to p_limit runnable jobs of one queue to p_worker for p_lease,
-- in the order above; only the given types when p_types is not null. Rows
-- other workers are claiming right now are skipped, never waited for. Each
-- claim counts as an attempt. Workers gone silent are declared gone and
-- their jobs handed back, and expired leases in the queue are reaped, first
-- (workers.sql: _rescue_gone_workers; internal.sql: _reap_expired).
-- Suspects (jobs orphaned twice, workers.sql) are never claimed beside other
-- jobs: a worker that holds nothing takes one alone (_claim_suspect), a
-- worker that holds one gets nothing else.
--
-- Steps (claim_steps.sql): rescue jobs of gone workers; reap expired leases;
-- isolation (suspects); promote due deferred jobs;
-- find the ready groups; settle caps (weights, tenant caps); where each
-- tenant stands (fair queues shared by tenants); then rounds of quotas (how
-- many jobs each group gets, from the tenants' virtual times alone, without
-- reading jobs), take (lock that many of each group's oldest jobs, skipping
-- rows other claimers hold) and charge (a group that yielded less is dry:
-- the next round hands its slots out again); key caps; lease; charge lanes.
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
    last_error      text,
    metadata        jsonb)  -- the job's headers, e.g. its trace context (jq_enqueue's p_metadata)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The statements below take arrays and the limit as parameters; their plans
-- do not depend on the values, and planning them afresh on every call
-- (custom plans) took half of a one-job claim (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now    timestamptz := jq._now();
    v_fair   boolean;                -- the queue shares its slots fairly (not plain)
    v_shared boolean;                -- more than one tenant has ready jobs
    v_groups jq.claim_group[];       -- the ready groups, with their tenants' figures
    v_quotas jq.claim_group[];       -- this round's quotas
    v_taken  jq.claim_job[];         -- what this round took
    v_jobs   jq.claim_job[] := '{}'; -- every job taken
    v_left   integer := p_limit;
    v_round  integer := 0;
    v_isolation text;                -- what the worker may take as to suspects (jq._worker_isolation)
    v_paused boolean;                -- the whole queue is paused (jq_queue_pause)
    v_skip   text[];                 -- its paused types; null when none
    v_suspect_types text[] := p_types;  -- types a suspect may be claimed from
    v_low    smallint;               -- the lowest and highest generation taken from (step 6)
    v_high   smallint;
begin
    perform jq._check_not_null(p_queue, 'queue');
    perform jq._check_worker(p_worker);
    perform jq._check_lease(p_lease);
    if p_limit is null or p_limit < 1 or p_limit > 1000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'Claim between 1 and 1000 jobs at a time.';
    end if;
    -- The caps count running jobs in a statement after their advisory lock is
    -- taken, which sees jobs another claimer just committed only under READ
    -- COMMITTED: a REPEATABLE READ snapshot would let two claimers both take
    -- a tenant's last slot.
    if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'jq_claim needs READ COMMITTED isolation; this transaction is %',
            upper(current_setting('transaction_isolation'))
            using errcode = '25000',
                  hint = 'Claim in a READ COMMITTED transaction of its own (autocommit is fine).';
    end if;
    if p_types is not null and cardinality(p_types) = 0 then
        return;
    end if;

    -- Steps 0-3 (claim_steps.sql has one function per step).
    perform jq._rescue_gone_workers(v_now);  -- sql/functions/workers.sql
    perform jq._reap_expired(p_queue, v_now);
    -- Pauses (queue_pause.sql): one probe of a tiny table. A paused queue
    -- gives nothing; the jobs of a paused type are skipped where candidates
    -- are read (quotas, take; suspects by the types they may be).
    select bool_or(p.type is null), array_agg(p.type) filter (where p.type is not null)
      into v_paused, v_skip
      from jq.queue_pauses p
     where p.queue = p_queue;
    if v_paused then
        return;
    end if;
    if v_skip is not null then
        v_suspect_types := array(select distinct s.type from jq.jobs s
                                  where s.queue = p_queue and s.status = 'pending' and s.orphaned >= 2
                                    and (p_types is null or s.type = any(p_types))
                                    and s.type <> all(v_skip));
    end if;
    -- Suspects (jobs orphaned twice) run alone: a worker holding one claims
    -- nothing else; a worker holding nothing takes one, if any is due.
    v_isolation := jq._worker_isolation(p_worker);
    if v_isolation = 'isolated' then
        return;
    elsif v_isolation = 'idle' and cardinality(v_suspect_types) is distinct from 0 then
        return query select * from jq._claim_suspect(p_queue, p_worker, p_lease, v_now, v_suspect_types);
        if found then
            return;
        end if;
    end if;
    perform jq._claim_promote_due(p_queue, v_now);
    v_groups := jq._claim_ready_groups(p_queue, v_now);
    if cardinality(v_groups) = 0 then
        return;
    end if;
    v_fair := coalesce((select s.fair from jq.queue_settings s where s.queue = p_queue), true);
    v_shared := exists (select 1 from unnest(v_groups) g where g.tkey <> v_groups[1].tkey);
    v_groups := jq._claim_settle_caps(p_queue, v_groups);
    if v_fair and v_shared then
        v_groups := jq._claim_standing(p_queue, v_groups);
    end if;

    -- Step 4: quotas, then take them; again for the slots of groups that ran dry.
    -- Every round fills the claim or finds a group dry (or a tenant out of
    -- room), so this ends within one round per group.
    loop
        v_round := v_round + 1;
        v_quotas := jq._claim_quotas(p_queue, p_types, v_now, v_fair, v_left, v_groups, v_jobs, v_skip);
        exit when cardinality(v_quotas) = 0;
        v_taken := jq._claim_take(p_queue, p_types, v_now, v_quotas, v_jobs, v_skip);
        v_jobs := v_jobs || v_taken;
        v_left := p_limit - cardinality(v_jobs);
        exit when v_left = 0 or v_round > cardinality(v_groups);
        v_groups := jq._claim_charge(v_groups, v_quotas, v_taken);
    end loop;
    if cardinality(v_jobs) = 0 then
        return;
    end if;

    v_jobs := jq._claim_key_caps(v_jobs);  -- step 5
    if cardinality(v_jobs) = 0 then
        return;
    end if;

    -- Step 6, lease (here, not in a step: a step returning the rows would copy
    -- them once more). The update finds the rows by ctid, which this claim's
    -- row locks keep from moving, in the generations between the lowest and
    -- the highest taken from (usually one; a range prunes the others at
    -- execution, where `generation = any(array)` probed every partition).
    -- A ctid names a row only within its partition, hence the id check when
    -- the range spans more than one (only then: it is a linear search). The rows come back in claim order as a
    -- plain queue has it: priority first, then run_at.
    select min(x.generation), max(x.generation) into v_low, v_high from unnest(v_jobs) x;
    return query
    with leased as (
        update jq.jobs j
           set status = 'processing',
               locked_by = p_worker,
               locked_until = v_now + p_lease,
               attempts = j.attempts + 1
         where j.generation between v_low and v_high
           and j.ctid = any (array(select x.ctid from unnest(v_jobs) x))
           and (v_low = v_high or j.id = any (array(select x.id from unnest(v_jobs) x)))
        returning j.id, j.queue, j.type, j.payload, j.priority, j.attempts, j.max_attempts, j.tenant,
                  j.run_at, j.created_at, j.locked_until, j.idempotency_key, j.last_error, j.metadata)
    select l.* from leased l order by l.priority desc, l.run_at, l.id;

    if v_fair and v_shared then  -- step 7
        perform jq._claim_charge_lanes(p_queue, v_now, v_groups, v_jobs);
    end if;
end
$$;
comment on function jq.jq_claim(text, text, integer, interval, text[]) is
    'Lease up to limit runnable jobs of a queue (queue, worker, limit, lease, types): priority first, then tenants take turns by weight (plain queues: run_at), oldest first within a tenant; honours tenant and concurrency-key caps; FOR UPDATE SKIP LOCKED; counts an attempt. Hands back jobs of workers gone silent and expired leases first (dead-lettering a job that used up its attempts alone in its worker); suspects (orphaned twice) are claimed alone, by a worker holding nothing.';
