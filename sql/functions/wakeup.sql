-- Wake-up: workers say when they are idle on a queue, so that enqueues
-- NOTIFY only queues where someone is waiting.

-- Marks p_worker as waiting (p_waiting = true) or busy (false) on each of
-- p_queues. Protocol for a worker: when a claim comes back short, call
-- jq_set_waiting(queues, worker, true), then claim once more (a job inserted
-- before the mark committed is found by that claim; one inserted after it
-- sends a NOTIFY), then sleep on LISTEN with a slow safety poll. The insert
-- that notifies uses the queue's marks up, so after a wake-up the worker
-- marks itself again when its claim comes back short. When a claim fills
-- every free slot, call it with false. Call it on the connection that
-- LISTENs: jq_maintain forgets marks whose backend has gone, so a crashed
-- worker leaves nothing behind. Writes only on a real transition.
create or replace function jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean)
returns void
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- The worker's hot path keeps generic plans (docs/design.md, Plans).
set plan_cache_mode = force_generic_plan
as $$
begin
    perform jq._check_worker(p_worker);
    if p_queues is null or p_waiting is null then
        raise exception 'queues and waiting must not be null' using errcode = '22004';
    end if;
    if p_waiting then
        -- One mark per (queue, worker), kept without a unique index on those
        -- columns (the key holds the generation): calls for one
        -- worker take turns, so two connections using one name cannot both
        -- insert it. A mark of another backend (the worker reconnected) is
        -- repointed at this one, keeping its generation and since. A mark
        -- that an insert is taking at this moment counts as existing: that
        -- insert notifies this worker, which then claims and marks again.
        perform pg_advisory_xact_lock(hashtext('jq.queue_waiters'), hashtext(p_worker));
        with wanted as (
            select distinct q as queue from unnest(p_queues) as q where q is not null
        ), repointed as (
            update jq.queue_waiters w
               set backend_pid = pg_backend_pid()
              from wanted n
             where w.queue = n.queue and w.worker = p_worker and w.backend_pid <> pg_backend_pid()
        )
        insert into jq.queue_waiters (queue, worker, backend_pid, since)
        select n.queue, p_worker, pg_backend_pid(), jq._now()
          from wanted n
         where not exists (select 1 from jq.queue_waiters w where w.queue = n.queue and w.worker = p_worker);
    else
        delete from jq.queue_waiters where worker = p_worker and queue = any(p_queues);
    end if;
end
$$;
comment on function jq.jq_set_waiting(text[], text, boolean) is
    'Mark a worker waiting (true) or busy (false) on queues (queues, worker, waiting): inserts NOTIFY jq_<queue> only while someone waits. Call on the LISTEN connection.';
