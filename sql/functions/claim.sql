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
-- Cost: one index probe per (priority, tenant) group with due jobs in the
-- queue (jobs for later wait outside the claim index, deferred), then the
-- jobs handed out, read from each group's head: independent of how many jobs
-- the largest tenant has waiting.

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
--
-- Steps: find the ready groups; settle caps; work out how many jobs each
-- group gets (its quota) from the tenants' virtual times alone, without
-- reading jobs; lock that many of each group's oldest jobs, skipping rows
-- other claimers hold; when a group runs dry, hand its unused slots out again
-- (each round fills the claim or closes a group); check key caps; lease;
-- record the lanes.
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
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- The statements below take arrays and the limit as parameters; their plans
-- do not depend on the values, and planning them afresh on every call
-- (custom plans) took half of a one-job claim.
set plan_cache_mode = force_generic_plan
as $$
declare
    v_now      timestamptz := jq._now();
    v_fair     boolean;
    v_shared   boolean;
    -- ready (priority, tenant) groups; open = may still yield jobs
    g_prio     smallint[];
    g_tkey     text[];
    g_first    timestamptz[];
    g_open     boolean[];
    -- tenants of those groups
    t_tkey     text[];
    t_weight   integer[];
    t_cap      integer[];
    t_room     integer[];
    t_pass     double precision[];
    t_eff      double precision[];
    t_got      integer[];
    -- this round's quotas, and what each group yielded
    q_prio     smallint[];
    q_tkey     text[];
    q_n        integer[];
    y_n        integer[];
    v_ctids    tid[] := '{}';
    v_types    text[] := '{}';
    v_keys     text[] := '{}';
    v_left     integer;
    v_round    integer := 0;
    v_prio     smallint;
    v_tkey     text;
    v_n        integer;
    v_got      integer;
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

    -- 0. Deferred jobs that have fallen due join the claim index, highest
    -- priority first (a burst is promoted 10,000 at a time, by this claim and
    -- the next ones): one probe per priority level holding deferred jobs.
    update jq.jobs j
       set deferred = false
     where j.ctid = any (array(
         with recursive lv(p) as (
             (select d.priority from jq.jobs d
               where d.queue = p_queue and d.status = 'pending' and d.deferred
               order by d.priority desc limit 1)
             union all
             select (select d.priority from jq.jobs d
                      where d.queue = p_queue and d.status = 'pending' and d.deferred and d.priority < lv.p
                      order by d.priority desc limit 1)
               from lv
              where lv.p is not null
         )
         select x.ctid
           from lv
          cross join lateral (
              select d.ctid from jq.jobs d
               where d.queue = p_queue and d.status = 'pending' and d.deferred
                 and d.priority = lv.p and d.run_at <= v_now
               order by d.run_at
               limit 10000
                 for update skip locked) x
          where lv.p is not null
          limit 10000));

    -- 1. The groups with ready jobs, and their tenants: a loose index scan
    -- of jobs_claim_idx, one probe per (priority, tenant) group. (Inline, not
    -- a set-returning SQL function: that would be planned afresh every call.)
    with recursive g(priority, tkey, first_run_at) as (
        (select j.priority, coalesce(j.tenant, ''), j.run_at
           from jq.jobs j
          where j.queue = p_queue and j.status = 'pending' and not j.deferred
          order by j.priority desc, coalesce(j.tenant, ''), j.run_at
          limit 1)
        union all
        select n.priority, n.tkey, n.run_at
          from g
         cross join lateral (
             (select j.priority, coalesce(j.tenant, '') as tkey, j.run_at
                from jq.jobs j
               where j.queue = p_queue and j.status = 'pending' and not j.deferred
                 and j.priority = g.priority and coalesce(j.tenant, '') > g.tkey
               order by j.priority desc, coalesce(j.tenant, ''), j.run_at
               limit 1)
             union all
             (select j.priority, coalesce(j.tenant, ''), j.run_at
                from jq.jobs j
               where j.queue = p_queue and j.status = 'pending' and not j.deferred and j.priority < g.priority
               order by j.priority desc, coalesce(j.tenant, ''), j.run_at
               limit 1)
             limit 1) n
    )
    select array_agg(g.priority order by g.priority desc, g.tkey), array_agg(g.tkey order by g.priority desc, g.tkey),
           array_agg(g.first_run_at order by g.priority desc, g.tkey), array_agg(true)
      into g_prio, g_tkey, g_first, g_open
      from g
     where g.first_run_at <= v_now;
    if g_prio is null then
        return;
    end if;
    select array_agg(distinct t) into t_tkey from unnest(g_tkey) t;
    select coalesce((select s.fair from jq.queue_settings s where s.queue = p_queue), true) into v_fair;
    v_shared := cardinality(t_tkey) > 1;

    -- 2. Weights and caps (policy rows are optional: skip the lookup when
    -- there are none).
    if exists (select 1 from jq.tenant_policies) then
        -- As jq._tenant_policy, inline (planned once, not on every call).
        select array_agg(coalesce(p.weight, 1) order by t.ord), array_agg(p.max_running order by t.ord)
          into t_weight, t_cap
          from unnest(t_tkey) with ordinality t(tkey, ord)
         cross join lateral (
             select (array_agg(x.weight order by x.tenant = '*', x.queue = '*')
                        filter (where x.weight is not null))[1] as weight,
                    (array_agg(x.max_running order by x.tenant = '*', x.queue = '*')
                        filter (where x.max_running is not null))[1] as max_running
               from jq.tenant_policies x
              where x.queue in (p_queue, '*') and x.tenant in (t.tkey, '*')) p;
    end if;
    if t_cap is not null and exists (select 1 from unnest(t_cap) c where c is not null) then
        -- Claimers of one capped tenant take turns on an advisory lock (one
        -- that cannot get it skips the tenant this time) and count its
        -- running jobs only once they hold it, in a later statement, so the
        -- count sees every claim committed before them.
        select array_agg(case when t.cap is null then null
                              when pg_try_advisory_xact_lock(hashtext('jq.tenant:' || p_queue), hashtext(t.tkey))
                              then t.cap else 0 end order by t.ord)
          into t_room
          from unnest(t_tkey, t_cap) with ordinality t(tkey, cap, ord);
        select array_agg(case when t.room is null then null
                              when t.tkey = '' then greatest(t.room - (select count(*)::integer
                                                        from (select 1 from jq.jobs r
                                                               where r.queue = p_queue and r.tenant is null
                                                                 and r.status = 'processing'
                                                               limit t.room) x), 0)
                              else greatest(t.room - (select count(*)::integer
                                                        from (select 1 from jq.jobs r
                                                               where r.queue = p_queue and r.tenant = t.tkey
                                                                 and r.status = 'processing'
                                                               limit t.room) x), 0) end order by t.ord)
          into t_room
          from unnest(t_tkey, t_room) with ordinality t(tkey, room, ord);
    end if;
    t_weight := coalesce(t_weight, array_fill(1, array[cardinality(t_tkey)]));
    t_room := coalesce(t_room, array_fill(null::integer, array[cardinality(t_tkey)]));
    t_got := array_fill(0, array[cardinality(t_tkey)]);

    -- 3. Where each tenant stands. Lanes within 10 jobs of the most served
    -- one are current; a lane further behind (back from a pause) or new
    -- starts level with the least served current lane: no credit for time
    -- away. A lone tenant needs no standing.
    if v_fair and v_shared then
        select array_agg(l.pass order by t.ord) into t_pass
          from unnest(t_tkey) with ordinality t(tkey, ord)
          left join jq.fair_lanes l on l.queue = p_queue and l.tenant = t.tkey;
        select array_agg(greatest(coalesce(t.pass, b.base), b.base) order by t.ord) into t_eff
          from unnest(t_pass) with ordinality t(pass, ord),
               (select coalesce(min(p.pass) filter (where p.pass >= m.top - 10), 0) as base
                  from unnest(t_pass) p(pass),
                       (select max(x) as top from unnest(t_pass) x) m) b;
    else
        t_eff := array_fill(0::double precision, array[cardinality(t_tkey)]);
    end if;

    -- 4. Quotas, then locks; again for the slots of groups that ran dry.
    v_left := p_limit;
    loop
        v_round := v_round + 1;
        -- Groups of tenants with no room left are done.
        select array_agg(g.open and coalesce(t.room > t.got, true) order by g.ord) into g_open
          from unnest(g_tkey, g_open) with ordinality g(tkey, open, ord)
          join unnest(t_tkey, t_room, t_got) t(tkey, room, got) on t.tkey = g.tkey;
        exit when not (true = any(g_open));

        if (select count(*) from unnest(g_open) o where o) = 1 then
            -- One group left: read its head directly, as a FIFO claim would.
            select g.prio, g.tkey, least(v_left, coalesce(t.room - t.got, v_left))
              into v_prio, v_tkey, v_n
              from unnest(g_prio, g_tkey, g_open) g(prio, tkey, open)
              join unnest(t_tkey, t_room, t_got) t(tkey, room, got) on t.tkey = g.tkey
             where g.open;
            select v_ctids || coalesce(array_agg(p.ctid), '{}'),
                   v_types || coalesce(array_agg(p.type), '{}'),
                   v_keys || coalesce(array_agg(p.concurrency_key), '{}'),
                   count(*)::integer
              into v_ctids, v_types, v_keys, v_got
              from (select j.ctid, j.type, j.concurrency_key
                      from jq.jobs j
                     where j.queue = p_queue and j.status = 'pending' and not j.deferred
                       and j.priority = v_prio and coalesce(j.tenant, '') = v_tkey
                       and j.run_at <= v_now
                       and (p_types is null or j.type = any(p_types))
                       and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
                       and j.ctid <> all(v_ctids)
                     order by j.run_at
                     limit v_n
                       for update of j skip locked) p;
            if v_shared then
                select array_agg(t.got + case when t.tkey = v_tkey then v_got else 0 end order by t.ord)
                  into t_got
                  from unnest(t_tkey, t_got) with ordinality t(tkey, got, ord);
            end if;
            exit;
        elsif v_fair then
            -- The next v_left slots in virtual-time order: tenant t's k-th
            -- job stands at eff + got/weight + (k-1)/weight. No tenant can
            -- get more than its weighted share of the slots plus what it
            -- is behind the most served, so only that many tags are made.
            with g as (
                select g.prio, g.tkey, g.first
                  from unnest(g_prio, g_tkey, g_first, g_open) g(prio, tkey, first, open)
                 where g.open
            ), t as (
                select t.tkey, t.weight, t.eff + t.got::double precision / t.weight as cur,
                       coalesce(t.room - t.got, v_left) as room
                  from unnest(t_tkey, t_weight, t_eff, t_room, t_got) t(tkey, weight, eff, room, got)
            ), lvl as (
                select g.prio, sum(t.weight) as weights, max(t.cur) as top
                  from g join t on t.tkey = g.tkey
                 group by g.prio
            ), tags as (
                select g.prio, g.tkey, g.first, k, t.cur + (k - 1)::double precision / t.weight as tag
                  from g
                  join t on t.tkey = g.tkey
                  join lvl on lvl.prio = g.prio
                 cross join lateral generate_series(1, least(v_left, t.room,
                     ceil(v_left::numeric * t.weight / lvl.weights)::integer
                     + ceil((lvl.top - t.cur) * t.weight)::integer + 1)) k
            ), ranked as (
                -- A tenant's room is shared by its groups at every priority.
                select x.prio, x.tkey, x.first, x.k, x.tag, t.room,
                       row_number() over (partition by x.tkey order by x.prio desc, x.k) as trn
                  from tags x join t on t.tkey = x.tkey
            ), top as (
                select x.prio, x.tkey
                  from ranked x
                 where x.trn <= x.room
                 -- Rounded, so that 1/3 + 1/3 + 1/3 ties with 1.
                 order by x.prio desc, round(x.tag * 1e9), x.first, x.tkey, x.k
                 limit v_left
            )
            select array_agg(q.prio), array_agg(q.tkey), array_agg(q.n)
              into q_prio, q_tkey, q_n
              from (select top.prio, top.tkey, count(*)::integer as n from top group by 1, 2) q;
        else
            -- Plain: the oldest ready jobs across tenants, read from each
            -- group's head.
            with g as (
                select g.prio, g.tkey
                  from unnest(g_prio, g_tkey, g_open) g(prio, tkey, open)
                 where g.open
            ), c as (
                select g.prio, g.tkey, j.run_at
                  from g
                  join unnest(t_tkey, t_room, t_got) t(tkey, room, got) on t.tkey = g.tkey
                 cross join lateral (
                     select j.run_at
                       from jq.jobs j
                      where j.queue = p_queue and j.status = 'pending' and not j.deferred
                        and j.priority = g.prio and coalesce(j.tenant, '') = g.tkey
                        and j.run_at <= v_now
                        and (p_types is null or j.type = any(p_types))
                        and j.ctid <> all(v_ctids)
                      order by j.run_at
                      limit least(v_left, coalesce(t.room - t.got, v_left))) j
            ), top as (
                select c.prio, c.tkey
                  from (select c.*, row_number() over (partition by c.tkey order by c.prio desc, c.run_at) as trn
                          from c) c
                  join unnest(t_tkey, t_room, t_got) t(tkey, room, got) on t.tkey = c.tkey
                 where c.trn <= coalesce(t.room - t.got, v_left)
                 order by c.prio desc, c.run_at, c.tkey
                 limit v_left
            )
            select array_agg(q.prio), array_agg(q.tkey), array_agg(q.n)
              into q_prio, q_tkey, q_n
              from (select top.prio, top.tkey, count(*)::integer as n from top group by 1, 2) q;
        end if;
        exit when q_prio is null;

        -- Lock each group's quota from its head, skipping rows other
        -- claimers hold: a group whose first rows are taken yields its next.
        with a as (
            select a.prio, a.tkey, a.n, a.ord
              from unnest(q_prio, q_tkey, q_n) with ordinality a(prio, tkey, n, ord)
        ), f as (
            select a.ord, p.ctid, p.type, p.concurrency_key
              from a
             cross join lateral (
                 select j.ctid, j.type, j.concurrency_key
                   from jq.jobs j
                  where j.queue = p_queue and j.status = 'pending' and not j.deferred
                    and j.priority = a.prio and coalesce(j.tenant, '') = a.tkey
                    and j.run_at <= v_now
                    and (p_types is null or j.type = any(p_types))
                    and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
                    and j.ctid <> all(v_ctids)
                  order by j.run_at
                  limit a.n
                    for update of j skip locked) p
        )
        select v_ctids || coalesce((select array_agg(f.ctid) from f), '{}'),
               v_types || coalesce((select array_agg(f.type) from f), '{}'),
               v_keys || coalesce((select array_agg(f.concurrency_key) from f), '{}'),
               (select array_agg((select count(*)::integer from f where f.ord = a.ord) order by a.ord) from a)
          into v_ctids, v_types, v_keys, y_n;

        -- What each tenant got; a group that yielded less than its quota is dry.
        select array_agg(t.got + coalesce((select sum(y.n)::integer
                                              from unnest(q_tkey, y_n) y(tkey, n)
                                             where y.tkey = t.tkey), 0) order by t.ord)
          into t_got
          from unnest(t_tkey, t_got) with ordinality t(tkey, got, ord);
        select array_agg(g.open and not exists (select 1 from unnest(q_prio, q_tkey, q_n, y_n) y(prio, tkey, n, got)
                                                 where y.prio = g.prio and y.tkey = g.tkey and y.got < y.n)
                         order by g.ord)
          into g_open
          from unnest(g_prio, g_tkey, g_open) with ordinality g(prio, tkey, open, ord);

        -- Every round fills the claim or finds a group dry (or a tenant out of
        -- room), so this ends within one round per group.
        v_left := p_limit - cardinality(v_ctids);
        exit when v_left = 0 or v_round > cardinality(g_prio);
    end loop;
    if cardinality(v_ctids) = 0 then
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
        -- Tenants are charged only for the jobs they are given.
        select array_agg((select count(*)::integer from jq.jobs j
                           where j.ctid = any(v_ctids) and coalesce(j.tenant, '') = t.tkey) order by t.ord)
          into t_got
          from unnest(t_tkey) with ordinality t(tkey, ord);
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

    -- 6. Lanes, when tenants shared the queue: every tenant served moves on
    -- by what it got over its weight; one that waited is written at its
    -- level so it keeps its place. Last, so the lane rows stay locked only
    -- until commit (concurrent claimers of the same tenants wait on them);
    -- in tenant order, so claims cannot deadlock.
    if v_fair and v_shared then
        insert into jq.fair_lanes as l (queue, tenant, pass, last_share, served, updated_at)
        select p_queue, t.tkey, t.eff + t.got::double precision / t.weight,
               t.got::double precision / t.weight, t.got, v_now
          from unnest(t_tkey, t_weight, t_pass, t_eff, t_got) t(tkey, weight, pass, eff, got)
         where t.got > 0 or t.pass is null or t.pass < t.eff
         order by t.tkey
        on conflict on constraint fair_lanes_pkey do update
           set pass = greatest(l.pass + excluded.last_share, excluded.pass),
               last_share = excluded.last_share,
               served = l.served + excluded.served,
               updated_at = excluded.updated_at;
    end if;
end
$$;
comment on function jq.jq_claim(text, text, integer, interval, text[]) is
    'Lease up to limit runnable jobs of a queue (queue, worker, limit, lease, types): priority first, then tenants take turns by weight (plain queues: run_at), oldest first within a tenant; honours tenant and concurrency-key caps; FOR UPDATE SKIP LOCKED; counts an attempt. Dead-letters jobs whose lease expired on their last attempt.';
