-- Jobs nobody handles: job types waiting in a queue that no live worker of
-- that queue claims (a typo in a type name, a handler not deployed yet, a
-- worker started without it). Such jobs are never claimed and never fail:
-- without this they wait for ever and nothing says why
-- (docs/operations.md, "Jobs nobody handles").
--
-- What is known comes from the worker registry (jq.workers): the queues each
-- live worker serves and, since 0.5.0, the types it handles. A worker that
-- did not say its types (types null: another language's, or an older pyjq)
-- may handle anything, so a queue with such a worker is never reported, and
-- neither is a queue no live worker serves (that is a missing worker, not a
-- missing handler: jq_stats shows its ready jobs ageing).

-- The sample of one queue's runnable jobs that jq_unhandled_types looks at:
-- the first 1,000 ready jobs in claim order, plus the first 1,000 scheduled
-- jobs already due (deferred: every claim of the queue moves them into the
-- claim index, whatever their type) of each priority level.
--
-- Plan: Limit over an Index Scan of jobs_claim_idx (queue = p_queue, in the
-- index's own order: no sort), and per priority level holding deferred jobs
-- one range scan of jobs_deferred_idx (queue, priority, run_at <= p_now), as
-- jq._claim_promote_due walks them. So a call reads at most about 1,000 +
-- 1,000 x levels rows whatever the backlog; jobs that nobody claims pile up
-- at the head of their priority level, where the sample finds them, unless
-- a longer backlog of handled jobs of higher priority is in front of them.
create or replace function jq._runnable_sample(p_queue text, p_now timestamptz)
returns table (type text, run_at timestamptz)
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
as $$
    (select j.type, j.run_at
       from jq.jobs j
      where j.queue = p_queue and j.status = 'pending' and not j.deferred
      order by j.priority desc, coalesce(j.tenant, ''), j.run_at
      limit 1000)
    union all
    (with recursive lv(p) as (
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
     select x.type, x.run_at
       from lv
      cross join lateral (
          select d.type, d.run_at from jq.jobs d
           where d.queue = p_queue and d.status = 'pending' and d.deferred
             and d.priority = lv.p and d.run_at <= p_now
           order by d.run_at
           limit 1000) x
      where lv.p is not null)
$$;

-- Per (queue, type): the runnable jobs (ready, or scheduled and due) whose
-- type no live worker of the queue handles, counting only queues whose live
-- workers all said which types they handle. waiting and oldest_waiting_age
-- (since the oldest became runnable, its run_at) are read from the sample
-- above, so waiting is at most 1,000 per index walk: a lower bound on a
-- longer queue. workers: the live workers serving the queue. Called by every
-- pyjq worker about every 30 s, by `pyjq stats` and GET /queues.
create or replace function jq.jq_unhandled_types()
returns table (queue text, type text, waiting bigint, oldest_waiting_age interval, workers integer)
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
    v_now   timestamptz := jq._now();
    v_since timestamptz := v_now - (select s.worker_gone_after from jq.settings s);
    v_queue record;
begin
    for v_queue in
        select q.name, count(distinct w.name)::integer as workers,
               coalesce(array_agg(distinct t.type) filter (where t.type is not null), '{}') as types
          from jq.workers w
         cross join lateral jsonb_object_keys(w.queues) q(name)
          left join lateral unnest(w.types) t(type) on true
         where w.gone_at is null and w.last_seen >= v_since
         group by q.name
        having bool_and(w.types is not null)
         order by q.name
    loop
        return query
        select v_queue.name, s.type, count(*), v_now - min(s.run_at), v_queue.workers
          from jq._runnable_sample(v_queue.name, v_now) s
         where s.type <> all (v_queue.types)
         group by s.type
         order by s.type;
    end loop;
end
$$;
comment on function jq.jq_unhandled_types() is
    'Job types waiting (ready, or scheduled and due) in a queue whose live workers all registered their types and none handles them -> (queue, type, waiting, oldest_waiting_age, workers); read from a bounded sample of each queue (at most 1,000 ready jobs in claim order).';
