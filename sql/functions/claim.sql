-- Claim: workers lease runnable jobs.
--
-- Order (DESIGN "Rules", issue #8): priority first; among ready jobs of equal
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
-- Cost: one index probe per (priority, tenant) group with pending jobs in the
-- queue, plus at most `limit` index entries per ready group: independent of
-- how many jobs the largest tenant has waiting.

-- The distinct (priority, tenant) groups of a queue's pending jobs, each with
-- its oldest run_at: a loose index scan of jobs_claim_idx, one probe a group.
create or replace function jq._claim_groups(p_queue text)
returns table (priority smallint, tkey text, first_run_at timestamptz)
language sql
stable
as $$
    with recursive g(priority, tkey, first_run_at) as (
        (select j.priority, coalesce(j.tenant, ''), j.run_at
           from jq.jobs j
          where j.queue = p_queue and j.status = 'pending'
          order by j.priority desc, coalesce(j.tenant, ''), j.run_at
          limit 1)
        union all
        select n.priority, n.tkey, n.run_at
          from g
         cross join lateral (
             (select j.priority, coalesce(j.tenant, '') as tkey, j.run_at
                from jq.jobs j
               where j.queue = p_queue and j.status = 'pending'
                 and j.priority = g.priority and coalesce(j.tenant, '') > g.tkey
               order by j.priority desc, coalesce(j.tenant, ''), j.run_at
               limit 1)
             union all
             (select j.priority, coalesce(j.tenant, ''), j.run_at
                from jq.jobs j
               where j.queue = p_queue and j.status = 'pending' and j.priority < g.priority
               order by j.priority desc, coalesce(j.tenant, ''), j.run_at
               limit 1)
             limit 1) n
    )
    select g.priority, g.tkey, g.first_run_at from g
$$;

-- Room left under the per-key cap of one (type, concurrency_key), as seen by
-- the current snapshot; reads at most the cap's worth of index entries.
create or replace function jq._key_room(p_type text, p_key text)
returns integer
language sql
stable
as $$
    select l.cap - (select count(*)::integer
                      from (select 1 from jq.jobs r
                             where r.type = p_type and r.concurrency_key = p_key
                               and r.status = 'processing'
                             limit l.cap) x)
      from (select coalesce((select k.max_running from jq.key_limits k where k.type = p_type), 1) as cap) l
$$;

-- Leases up to p_limit runnable jobs of one queue to p_worker for p_lease,
-- in the order above; only the given types when p_types is not null. Rows
-- other workers are claiming right now are skipped, never waited for. Each
-- claim counts as an attempt. Expired leases in the queue are reaped first
-- (see _reap_expired).
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
    v_now        timestamptz := jq._now();
    v_fair       boolean;
    v_g_prio     smallint[];
    v_g_tkey     text[];
    v_g_first    timestamptz[];
    v_tenants    text[];
    v_p_tkey     text[];
    v_p_weight   integer[];
    v_p_cap      integer[];
    v_capped     text[];
    v_caps       integer[];
    v_room_tkey  text[];
    v_room       integer[];
    v_a_prio     smallint[];
    v_a_tkey     text[];
    v_a_n        integer[];
    v_l_tkey     text[];
    v_l_eff      double precision[];
    v_l_share    double precision[];
    v_l_n        integer[];
    v_ctids      tid[];
    v_types      text[];
    v_keys       text[];
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

    -- 1. The groups with ready jobs.
    select array_agg(g.priority), array_agg(g.tkey), array_agg(g.first_run_at)
      into v_g_prio, v_g_tkey, v_g_first
      from jq._claim_groups(p_queue) g
     where g.first_run_at <= v_now;
    if v_g_prio is null then
        return;
    end if;
    select array_agg(distinct t) into v_tenants from unnest(v_g_tkey) t;

    -- 2. Tenant caps. Claimers of one capped tenant take turns on an advisory
    -- lock (a claimer that cannot get it skips the tenant this time), and
    -- count its running jobs only once they hold it, in a later statement,
    -- so the count sees every claim committed before them.
    if exists (select 1 from jq.tenant_policies) then
        select array_agg(t.tkey), array_agg(p.weight), array_agg(p.max_running)
          into v_p_tkey, v_p_weight, v_p_cap
          from unnest(v_tenants) t(tkey)
         cross join lateral jq._tenant_policy(p_queue, t.tkey) p
         where p.weight <> 1 or p.max_running is not null;
        select array_agg(c.tkey), array_agg(c.cap) into v_capped, v_caps
          from unnest(v_p_tkey, v_p_cap) c(tkey, cap)
         where c.cap is not null;
    end if;
    if v_capped is not null then
        select array_agg(c.tkey), array_agg(case when pg_try_advisory_xact_lock(
                                                     hashtext('jq.tenant:' || p_queue), hashtext(c.tkey))
                                                 then c.cap else 0 end)
          into v_room_tkey, v_room
          from unnest(v_capped, v_caps) c(tkey, cap);
        select array_agg(c.tkey),
               array_agg(greatest(c.cap - (select count(*)::integer
                                             from (select 1 from jq.jobs r
                                                    where r.queue = p_queue and coalesce(r.tenant, '') = c.tkey
                                                      and r.status = 'processing'
                                                    limit c.cap) x), 0))
          into v_room_tkey, v_room
          from unnest(v_room_tkey, v_room) c(tkey, cap);
    end if;

    select coalesce((select s.fair from jq.queue_settings s where s.queue = p_queue), true) into v_fair;

    if cardinality(v_g_prio) = 1 and v_capped is null then
        -- One ready group, no cap: nothing to share out.
        v_a_prio := v_g_prio;
        v_a_tkey := v_g_tkey;
        v_a_n := array[p_limit];
    else

    -- 3. Share out the slots: up to p_limit candidates per ready group (the
    -- snapshot's view), ranked by priority, then the tenant's virtual time
    -- (fair) or run_at (plain), and cut at p_limit and at each tenant's room.
    with grp as (
        select g.priority, g.tkey, g.first_run_at
          from unnest(v_g_prio, v_g_tkey, v_g_first) g(priority, tkey, first_run_at)
    ), room as (
        select r.tkey, r.room from unnest(v_room_tkey, v_room) r(tkey, room)
    ), pol as (
        select p.tkey, p.weight from unnest(v_p_tkey, v_p_weight) p(tkey, weight)
    ), ten as (
        select t.tkey, coalesce((select p.weight from pol p where p.tkey = t.tkey), 1) as weight, l.pass,
               (select r.room from room r where r.tkey = t.tkey) as room
          from unnest(v_tenants) t(tkey)
          left join jq.fair_lanes l on l.queue = p_queue and l.tenant = t.tkey
    ), cand as (
        select g.priority, g.tkey, g.first_run_at, c.rn, c.run_at
          from grp g
          join ten on ten.tkey = g.tkey
         cross join lateral (
             select row_number() over (order by j.run_at) as rn, j.run_at
               from (select j.run_at
                       from jq.jobs j
                      where j.queue = p_queue and j.status = 'pending'
                        and j.priority = g.priority and coalesce(j.tenant, '') = g.tkey
                        and j.run_at <= v_now
                        and (p_types is null or j.type = any(p_types))
                        and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
                      order by j.run_at
                      limit least(p_limit, coalesce(ten.room, p_limit))) j
         ) c
         where coalesce(ten.room, 1) > 0
    ), level as (
        -- Lanes within 10 jobs of the most served candidate are current; a
        -- lane further behind (back from a pause) or new starts at the least
        -- served current one.
        select min(t.pass) filter (where t.pass >= m.top - 10) as base
          from ten t, (select max(pass) as top from ten where tkey in (select tkey from cand)) m
         where t.tkey in (select tkey from cand)
    ), tagged as (
        select c.priority, c.tkey, c.rn, c.run_at, c.first_run_at, t.weight, t.room,
               greatest(coalesce(t.pass, lv.base, 0), coalesce(lv.base, 0)) as eff
          from cand c
          join ten t on t.tkey = c.tkey
         cross join level lv
    ), ranked as (
        select x.*, row_number() over (partition by x.tkey order by x.priority desc, x.rn) as trn
          from tagged x
    ), chosen as (
        select r.priority, r.tkey, r.eff, r.weight
          from ranked r
         where r.trn <= coalesce(r.room, p_limit)
         order by r.priority desc,
                  case when v_fair then r.eff + (r.trn - 1)::double precision / r.weight end,
                  case when v_fair then r.first_run_at else r.run_at end,
                  r.tkey, r.rn
         limit p_limit
    ), per_group as (
        select c.priority, c.tkey, count(*)::integer as n from chosen c group by 1, 2
    ), per_tenant as (
        -- Every candidate tenant, served or not: an unserved one is written
        -- at its level too, so it keeps its place in the round.
        select t.tkey, t.eff, count(c.tkey)::integer as n,
               count(c.tkey)::double precision / t.weight as share
          from (select distinct x.tkey, x.eff, x.weight, x.pass
                  from (select tg.tkey, tg.eff, tg.weight, tn.pass
                          from tagged tg join ten tn on tn.tkey = tg.tkey) x) t
          left join chosen c on c.tkey = t.tkey
         group by t.tkey, t.eff, t.weight, t.pass
        having count(c.tkey) > 0 or t.pass is null or t.pass < t.eff
    )
    select (select array_agg(g.priority order by g.priority desc, g.tkey) from per_group g),
           (select array_agg(g.tkey order by g.priority desc, g.tkey) from per_group g),
           (select array_agg(g.n order by g.priority desc, g.tkey) from per_group g),
           (select array_agg(t.tkey order by t.tkey) from per_tenant t),
           (select array_agg(t.eff order by t.tkey) from per_tenant t),
           (select array_agg(t.share order by t.tkey) from per_tenant t),
           (select array_agg(t.n order by t.tkey) from per_tenant t)
      into v_a_prio, v_a_tkey, v_a_n, v_l_tkey, v_l_eff, v_l_share, v_l_n;
    if v_a_prio is null then
        return;
    end if;
    end if;

    -- 4. Lock each group's share, skipping rows other claimers hold: a group
    -- whose first rows are taken yields its next ones.
    select array_agg(p.ctid), array_agg(p.type), array_agg(p.concurrency_key)
      into v_ctids, v_types, v_keys
      from unnest(v_a_prio, v_a_tkey, v_a_n) a(priority, tkey, n)
     cross join lateral (
         select j.ctid, j.type, j.concurrency_key
           from jq.jobs j
          where j.queue = p_queue and j.status = 'pending'
            and j.priority = a.priority and coalesce(j.tenant, '') = a.tkey
            and j.run_at <= v_now
            and (p_types is null or j.type = any(p_types))
            and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
          order by j.run_at
          limit a.n
            for update of j skip locked) p;
    if v_ctids is null then
        return;
    end if;

    -- 5. Key caps, like tenant caps: lock the (type, key), then recount in a
    -- new statement; keep at most the room left per key, drop the rest (they
    -- stay pending; our row locks on them go at commit).
    if exists (select 1 from unnest(v_keys) k where k is not null) then
        with k as (
            select distinct t.type, t.key from unnest(v_types, v_keys) t(type, key) where t.key is not null
        )
        select array_agg(k.type), array_agg(k.key) into v_types, v_keys
          from k
         where pg_try_advisory_xact_lock(hashtext('jq.key:' || k.type), hashtext(k.key));
        select array_agg(x.ctid) into v_ctids
          from (select j.ctid, j.type, j.concurrency_key as key,
                       row_number() over (partition by j.type, j.concurrency_key order by j.run_at) as krn
                  from jq.jobs j
                 where j.ctid = any(v_ctids)) x
          left join unnest(v_types, v_keys) lk(type, key) on lk.type = x.type and lk.key = x.key
         where x.key is null
            or (lk.key is not null and x.krn <= jq._key_room(x.type, x.key));
        if v_ctids is null then
            return;
        end if;
    end if;

    -- 6. Fair bookkeeping, when tenants shared this claim's choice: a lone
    -- tenant needs none (it starts level with the others when one shows up).
    -- Lanes are written in tenant order, so concurrent claims cannot deadlock.
    if v_fair and v_l_tkey is not null and cardinality(v_tenants) > 1 then
        insert into jq.fair_lanes as l (queue, tenant, pass, last_share, served, updated_at)
        select p_queue, t.tkey, t.eff + t.share, t.share, t.n, v_now
          from unnest(v_l_tkey, v_l_eff, v_l_share, v_l_n) t(tkey, eff, share, n)
         order by t.tkey
        on conflict on constraint fair_lanes_pkey do update
           set pass = greatest(l.pass + excluded.last_share, excluded.pass),
               last_share = excluded.last_share,
               served = l.served + excluded.served,
               updated_at = excluded.updated_at;
    end if;

    -- The update finds the locked rows by ctid (a row we hold FOR UPDATE
    -- cannot move), saving a primary-key lookup per job.
    return query
    update jq.jobs j
       set status = 'processing',
           locked_by = p_worker,
           locked_until = v_now + p_lease,
           attempts = j.attempts + 1
     where j.ctid = any (v_ctids)
    returning j.id, j.queue, j.type, j.payload, j.priority, j.attempts, j.max_attempts, j.tenant,
              j.run_at, j.created_at, j.locked_until, j.idempotency_key, j.last_error;
end
$$;
comment on function jq.jq_claim(text, text, integer, interval, text[]) is
    'Lease up to limit runnable jobs of a queue (queue, worker, limit, lease, types): priority first, then tenants take turns by weight (plain queues: run_at), oldest first within a tenant; honours tenant and concurrency-key caps; FOR UPDATE SKIP LOCKED; counts an attempt. Dead-letters jobs whose lease expired on their last attempt.';
