-- The steps of jq_claim (sql/functions/claim.sql), one function each, in the
-- order the claim runs them. Internal: called only by jq_claim, as its owner,
-- within its settings (plan_cache_mode = force_generic_plan, search_path).
--
-- The claim's state travels between the steps as arrays of two composite
-- types: jq.claim_group, one row per ready (priority, tenant) group carrying
-- its tenant's figures too, and jq.claim_job, one row per job taken. Every
-- step is PL/pgSQL and VOLATILE: each of its statements plans once per
-- session and takes a fresh snapshot (the cap counts rely on that, see
-- _claim_settle_caps), and a step that changes a field rebuilds the rows with
-- row(...) in the type's field order.

-- The types jq.claim_group and jq.claim_job are made by migration 0004
-- (sql/migrations/0004_structure.sql): a change of either needs a migration.

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

-- Step 0. Deferred jobs that have fallen due join the claim index, highest
-- priority first (a burst is promoted 10,000 at a time, by this claim and the
-- next ones): one probe per priority level holding deferred jobs. Picked
-- first and updated only when there are any: most claims find none, and an
-- UPDATE of jq.jobs costs a claim 0.3-0.6 ms to start even when it changes
-- nothing (it opens every partition), against 0.1 ms for the pick. The
-- update prunes to the generations between the lowest and highest picked.
create or replace function jq._claim_promote_due(p_queue text, p_now timestamptz)
returns void
language plpgsql
as $$
declare
    v_ids  uuid[];
    v_low  smallint;
    v_high smallint;
begin
    select array_agg(x.id), min(x.generation), max(x.generation)
      into v_ids, v_low, v_high
      from (with recursive lv(p) as (
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
            select t.id, t.generation
              from lv
             cross join lateral (
                 select d.id, d.generation from jq.jobs d
                  where d.queue = p_queue and d.status = 'pending' and d.deferred
                    and d.priority = lv.p and d.run_at <= p_now
                  order by d.run_at
                  limit 10000
                    for update skip locked) t
             where lv.p is not null
             limit 10000) x;
    if v_ids is null then
        return;
    end if;
    update jq.jobs j
       set deferred = false
     where j.generation between v_low and v_high
       and j.id = any (v_ids);
end
$$;

-- Step 1. The (priority, tenant) groups with ready jobs, highest priority
-- first, then by tenant: a loose index scan of jobs_claim_idx, one probe per
-- group. Each starts open, weight 1, no cap, no lane, level 0, nothing got.
-- Empty when nothing is ready.
create or replace function jq._claim_ready_groups(p_queue text, p_now timestamptz)
returns jq.claim_group[]
language plpgsql
as $$
begin
    return array(
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
        select row(g.priority, g.tkey, g.first_run_at, true, 1, null, null, 0, 0, null)::jq.claim_group
          from g
         where g.first_run_at <= p_now
         order by g.priority desc, g.tkey);
end
$$;

-- Step 2. Weights and caps from jq.tenant_policies (as jq._tenant_policy,
-- inline: planned once, not on every call); nothing to do when there are no
-- policy rows. Claimers of one capped tenant take turns on an advisory lock
-- (one that cannot get it gives the tenant no room this time) and count its
-- running jobs only once they hold it, in a later statement, so the count
-- sees every claim committed before them. (A tenant without room keeps its
-- groups open: no quota step considers them.)
create or replace function jq._claim_settle_caps(p_queue text, p_groups jq.claim_group[])
returns jq.claim_group[]
language plpgsql
as $$
declare
    v_groups jq.claim_group[];
begin
    if not exists (select 1 from jq.tenant_policies) then
        return p_groups;
    end if;
    -- room holds the cap for now (0 when another claimer holds the lock).
    -- Materialized: one lock attempt per tenant, however many groups it has.
    v_groups := array(
        with t as materialized (
            select t.tkey, coalesce(p.weight, 1) as weight,
                   case when p.max_running is null then null
                        when pg_try_advisory_xact_lock(hashtext('jq.tenant:' || p_queue), hashtext(t.tkey))
                        then p.max_running else 0 end as cap
              from (select distinct g.tkey from unnest(p_groups) g) t
             cross join lateral (
                 select (array_agg(x.weight order by x.tenant = '*', x.queue = '*')
                            filter (where x.weight is not null))[1] as weight,
                        (array_agg(x.max_running order by x.tenant = '*', x.queue = '*')
                            filter (where x.max_running is not null))[1] as max_running
                   from jq.tenant_policies x
                  where x.queue in (p_queue, '*') and x.tenant in (t.tkey, '*')) p
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open,
                   t.weight, t.cap, g.pass, g.eff, g.got, g.quota)::jq.claim_group
          from unnest(p_groups) with ordinality g
          join t on t.tkey = g.tkey
         order by g.ordinality);
    if not exists (select 1 from unnest(v_groups) g where g.room is not null) then
        return v_groups;
    end if;
    -- The count: at most the cap's worth of index entries per tenant. Two
    -- arms, because jobs without a tenant are not in jobs_running_tenant_idx.
    return array(
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight,
                   case when g.room is not null then greatest(g.room - case
                       when g.tkey = '' then (select count(*)::integer
                                                from (select 1 from jq.jobs r
                                                       where r.queue = p_queue and r.tenant is null
                                                         and r.status = 'processing'
                                                       limit g.room) x)
                       else (select count(*)::integer
                               from (select 1 from jq.jobs r
                                      where r.queue = p_queue and r.tenant = g.tkey
                                        and r.status = 'processing'
                                      limit g.room) x)
                       end, 0) end,
                   g.pass, g.eff, g.got, g.quota)::jq.claim_group
          from unnest(v_groups) with ordinality g
         order by g.ordinality);
end
$$;

-- Step 3 (fair queues shared by tenants). Where each tenant stands: lanes
-- within 10 jobs of the most served one are current; a lane further behind
-- (back from a pause) or new starts level with the least served current
-- lane: no credit for time away.
create or replace function jq._claim_standing(p_queue text, p_groups jq.claim_group[])
returns jq.claim_group[]
language plpgsql
as $$
begin
    return array(
        with g as (
            select g.*, l.pass as lane_pass
              from unnest(p_groups) with ordinality g
              left join jq.fair_lanes l on l.queue = p_queue and l.tenant = g.tkey
        ), b as (
            select coalesce(min(g.lane_pass) filter (where g.lane_pass >= m.top - 10), 0) as base
              from g, (select max(g.lane_pass) as top from g) m
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room,
                   g.lane_pass, greatest(coalesce(g.lane_pass, b.base), b.base), g.got, g.quota)::jq.claim_group
          from g, b
         order by g.ordinality);
end
$$;

-- Step 4a. This round's quotas: the groups to take from and how many jobs
-- each (quota rows: the groups' rows with quota set), at most p_left in all;
-- empty when no group can yield. The groups that can: open, and their
-- tenant has room left. One such group takes the lot (read from its head, as
-- a FIFO claim would); otherwise the fair or the plain rule shares them.
create or replace function jq._claim_quotas(
    p_queue text, p_types text[], p_now timestamptz, p_fair boolean, p_left integer,
    p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[])
returns jq.claim_group[]
language plpgsql
as $$
declare
    v_open integer;
begin
    select count(*) into v_open from unnest(p_groups) g where g.open and coalesce(g.room > g.got, true);
    if v_open = 0 then
        return '{}';
    elsif v_open = 1 then
        return array(
            select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                       least(p_left, coalesce(g.room - g.got, p_left)))::jq.claim_group
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true));
    elsif p_fair then
        return jq._claim_quotas_fair(p_left, p_groups);
    else
        return jq._claim_quotas_plain(p_queue, p_types, p_now, p_left, p_groups, p_jobs, p_skip_types);
    end if;
end
$$;

-- Step 4a, fair: the next p_left slots in virtual-time order. A tenant's k-th
-- job stands at eff + got/weight + (k-1)/weight; higher priority first. No
-- tenant can get more than its weighted share of the slots plus what it is
-- behind the most served, so only that many tags are made; a tenant's room
-- is shared by its groups at every priority.
create or replace function jq._claim_quotas_fair(p_left integer, p_groups jq.claim_group[])
returns jq.claim_group[]
language plpgsql
as $$
begin
    return array(
        with g as (
            select g.*, g.eff + g.got::double precision / g.weight as cur,
                   coalesce(g.room - g.got, p_left) as left_room
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true)
        ), lvl as (
            select g.priority, sum(g.weight) as weights, max(g.cur) as top
              from g
             group by g.priority
        ), tags as (
            select g.priority, g.tkey, g.first_run_at, g.left_room, k,
                   g.cur + (k - 1)::double precision / g.weight as tag
              from g
              join lvl on lvl.priority = g.priority
             cross join lateral generate_series(1, least(p_left, g.left_room,
                 ceil(p_left::numeric * g.weight / lvl.weights)::integer
                 + ceil((lvl.top - g.cur) * g.weight)::integer + 1)) k
        ), ranked as (
            select x.*, row_number() over (partition by x.tkey order by x.priority desc, x.k) as trn
              from tags x
        ), top as (
            select x.priority, x.tkey
              from ranked x
             where x.trn <= x.left_room
             -- Rounded, so that 1/3 + 1/3 + 1/3 ties with 1.
             order by x.priority desc, round(x.tag * 1e9), x.first_run_at, x.tkey, x.k
             limit p_left
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                   q.n)::jq.claim_group
          from (select top.priority, top.tkey, count(*)::integer as n from top group by 1, 2) q
          join g on g.priority = q.priority and g.tkey = q.tkey);
end
$$;

-- Step 4a, plain: the oldest ready jobs across tenants (read from each
-- group's head, at most what its tenant has room for), p_left of them.
create or replace function jq._claim_quotas_plain(
    p_queue text, p_types text[], p_now timestamptz, p_left integer,
    p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[])
returns jq.claim_group[]
language plpgsql
as $$
begin
    return array(
        with g as (
            select g.*, coalesce(g.room - g.got, p_left) as left_room
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true)
        ), c as (
            select g.priority, g.tkey, g.left_room, j.run_at
              from g
             cross join lateral (
                 select j.run_at
                   from jq.jobs j
                  where j.queue = p_queue and j.status = 'pending' and not j.deferred
                    and j.priority = g.priority and coalesce(j.tenant, '') = g.tkey
                    and j.run_at <= p_now
                    and (p_types is null or j.type = any(p_types))
                    and (p_skip_types is null or j.type <> all(p_skip_types))
                    and j.id <> all (array(select x.id from unnest(p_jobs) x))
                  order by j.run_at
                  limit least(p_left, g.left_room)) j
        ), top as (
            select c.priority, c.tkey
              from (select c.*, row_number() over (partition by c.tkey order by c.priority desc, c.run_at) as trn
                      from c) c
             where c.trn <= c.left_room
             order by c.priority desc, c.run_at, c.tkey
             limit p_left
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                   q.n)::jq.claim_group
          from (select top.priority, top.tkey, count(*)::integer as n from top group by 1, 2) q
          join g on g.priority = q.priority and g.tkey = q.tkey);
end
$$;

-- Step 4b. Take each group's quota from its head: lock its oldest ready jobs
-- of the given types (p_types null: any) but not of the paused ones
-- (p_skip_types), skipping rows other claimers hold
-- (a group whose first rows are taken yields its next), jobs already taken
-- (p_jobs) and jobs whose key has no room. Returns the jobs taken.
create or replace function jq._claim_take(
    p_queue text, p_types text[], p_now timestamptz, p_quotas jq.claim_group[], p_jobs jq.claim_job[],
    p_skip_types text[])
returns jq.claim_job[]
language plpgsql
as $$
begin
    return array(
        select row(p.ctid, p.type, p.concurrency_key, q.priority, q.tkey, p.id, p.generation)::jq.claim_job
          from unnest(p_quotas) q
         cross join lateral (
             select j.ctid, j.id, j.generation, j.type, j.concurrency_key
               from jq.jobs j
              where j.queue = p_queue and j.status = 'pending' and not j.deferred
                and j.priority = q.priority and coalesce(j.tenant, '') = q.tkey
                and j.run_at <= p_now
                and j.orphaned < 2  -- suspects run in isolation (jq._claim_suspect)
                and (p_types is null or j.type = any(p_types))
                and (p_skip_types is null or j.type <> all(p_skip_types))  -- paused types
                and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
                and j.id <> all (array(select x.id from unnest(p_jobs) x))
              order by j.run_at
              limit q.quota
                for update of j skip locked) p);
end
$$;

-- Step 4c. Charge a round: each tenant got what its groups yielded
-- (p_taken); a group that yielded less than its quota is dry (closed).
create or replace function jq._claim_charge(
    p_groups jq.claim_group[], p_quotas jq.claim_group[], p_taken jq.claim_job[])
returns jq.claim_group[]
language plpgsql
as $$
begin
    return array(
        with y as (
            select y.priority, y.tkey, count(*)::integer as n from unnest(p_taken) y group by 1, 2
        )
        select row(g.priority, g.tkey, g.first_run_at,
                   g.open and not exists (select 1 from unnest(p_quotas) q
                                           where q.priority = g.priority and q.tkey = g.tkey
                                             and q.quota > coalesce((select y.n from y
                                                                      where y.priority = g.priority
                                                                        and y.tkey = g.tkey), 0)),
                   g.weight, g.room, g.pass, g.eff,
                   g.got + coalesce((select sum(y.n)::integer from y where y.tkey = g.tkey), 0),
                   null)::jq.claim_group
          from unnest(p_groups) with ordinality g
         order by g.ordinality);
end
$$;

-- Step 5. Key caps, like tenant caps: lock each (type, key) taken, then
-- recount in a new statement; keep at most the room left per key, oldest
-- run_at first, and drop the rest (they stay pending; our row locks on them
-- go at commit). Returns the jobs kept.
create or replace function jq._claim_key_caps(p_jobs jq.claim_job[])
returns jq.claim_job[]
language plpgsql
as $$
declare
    v_locked jq.claim_job[];  -- the (type, concurrency_key) pairs we hold the lock of
begin
    if not exists (select 1 from unnest(p_jobs) j where j.concurrency_key is not null) then
        return p_jobs;
    end if;
    v_locked := array(
        select row(null, k.type, k.concurrency_key, null, null, null, null)::jq.claim_job
          from (select distinct j.type, j.concurrency_key
                  from unnest(p_jobs) j
                 where j.concurrency_key is not null) k
         where pg_try_advisory_xact_lock(hashtext('jq.key:' || k.type), hashtext(k.concurrency_key)));
    return array(
        select row(x.ctid, x.type, x.concurrency_key, x.priority, x.tkey, x.id, x.generation)::jq.claim_job
          from (select j.ctid, j.id, j.generation, j.type, j.concurrency_key, j.priority, coalesce(j.tenant, '') as tkey,
                       row_number() over (partition by j.type, j.concurrency_key order by j.run_at) as krn
                  from jq.jobs j
                 where j.id = any (array(select y.id from unnest(p_jobs) y))
                   and j.generation = any (array(select distinct y.generation from unnest(p_jobs) y))) x
          left join unnest(v_locked) lk on lk.type = x.type and lk.concurrency_key = x.concurrency_key
         where x.concurrency_key is null
            or (lk.concurrency_key is not null and x.krn <= jq._key_room(x.type, x.concurrency_key)));
end
$$;

-- Step 7 (fair queues shared by tenants). Charge the lanes: every tenant
-- served moves on by what it was given (p_jobs, after key caps) over its
-- weight; one that waited is written at its level so it keeps its place.
-- Run after the lease, so the lane rows stay locked only until commit
-- (concurrent claimers of the same tenants wait on them); in tenant order,
-- so claims cannot deadlock.
create or replace function jq._claim_charge_lanes(
    p_queue text, p_now timestamptz, p_groups jq.claim_group[], p_jobs jq.claim_job[])
returns void
language plpgsql
as $$
begin
    insert into jq.fair_lanes as l (queue, tenant, pass, last_share, served, updated_at)
    select p_queue, t.tkey, t.eff + t.got::double precision / t.weight,
           t.got::double precision / t.weight, t.got, p_now
      from (select distinct on (g.tkey) g.tkey, g.weight, g.pass, g.eff,
                   (select count(*)::integer from unnest(p_jobs) j where j.tkey = g.tkey) as got
              from unnest(p_groups) g
             order by g.tkey) t
     where t.got > 0 or t.pass is null or t.pass < t.eff
     order by t.tkey
    on conflict on constraint fair_lanes_pkey do update
       set pass = greatest(l.pass + excluded.last_share, excluded.pass),
           last_share = excluded.last_share,
           served = l.served + excluded.served,
           updated_at = excluded.updated_at;
end
$$;
