-- Pausing a queue, or one type in a queue. jq_claim reads jq.queue_pauses
-- once per call (one index probe): a paused queue gives nothing, a paused
-- type is skipped where the claim reads candidates. Running jobs finish,
-- enqueue still works. Resuming wakes the queue's waiting workers the way an
-- insert does, so a worker asleep on LISTEN claims at once.

-- Who acts: what the caller named in jq.actor, else the database role (as jq._audit).
create or replace function jq._actor()
returns text
language sql
stable
as $$
    select left(coalesce(nullif(btrim(current_setting('jq.actor', true)), ''), session_user), 255)
$$;

-- Wakes the workers waiting on p_queue (jq.queue_waiters): takes the
-- queue's marks and sends one NOTIFY jq_<queue> when there were any. Called
-- by the insert trigger jq._notify_ready, and when jobs become claimable
-- without an insert (resume, retry now).
create or replace function jq._wake_queue(p_queue text)
returns void
language plpgsql
as $$
begin
    -- Looked for first: a queue whose workers are all busy (a flood) has no
    -- marks, and the probe costs a third of the delete's setup (every insert
    -- of ready jobs comes here, through jq._notify_ready).
    if not exists (select 1 from jq.queue_waiters x where x.queue = p_queue) then
        return;
    end if;
    -- By key, not ctid: a ctid names a row only within one generation.
    with taken as materialized (
        select x.worker, x.generation from jq.queue_waiters x where x.queue = p_queue
           for update skip locked
    )
    delete from jq.queue_waiters w
     using taken t
     where w.queue = p_queue and w.worker = t.worker and w.generation = t.generation;
    if found then
        perform pg_notify(jq._channel(p_queue), '');
    end if;
end
$$;

-- Pauses p_queue (p_type null) or only the jobs of p_type in it, from the
-- next claim on. True when it newly paused, false when it already was.
create or replace function jq.jq_queue_pause(p_queue text, p_type text default null)
returns boolean
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
    v_new boolean;
begin
    perform jq._check_queue(p_queue);
    perform jq._check_text(p_type, 'type', 128, true);
    insert into jq.queue_pauses (queue, type, paused_at, paused_by)
    values (p_queue, p_type, jq._now(), jq._actor())
    on conflict (queue, (coalesce(type, ''))) do nothing;
    v_new := found;
    perform jq._audit('queue_pause', jsonb_build_object('queue', p_queue, 'type', p_type), v_new::integer);
    return v_new;
end
$$;
comment on function jq.jq_queue_pause(text, text) is
    'Pause a queue (queue, type null) or one type in it (queue, type): claims skip it from the next call on; running jobs finish, enqueue still works. True when newly paused. Audited.';

-- Resumes what jq_queue_pause paused (the same queue and type; a type pause
-- and the queue pause are separate rows). True when it was paused. Waiting
-- workers of the queue are woken.
create or replace function jq.jq_queue_resume(p_queue text, p_type text default null)
returns boolean
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
    v_was boolean;
begin
    perform jq._check_queue(p_queue);
    perform jq._check_text(p_type, 'type', 128, true);
    delete from jq.queue_pauses p
     where p.queue = p_queue and coalesce(p.type, '') = coalesce(p_type, '');
    v_was := found;
    if v_was then
        perform jq._wake_queue(p_queue);
    end if;
    perform jq._audit('queue_resume', jsonb_build_object('queue', p_queue, 'type', p_type), v_was::integer);
    return v_was;
end
$$;
comment on function jq.jq_queue_resume(text, text) is
    'Resume a paused queue or (queue, type): true when it was paused; wakes the queue''s waiting workers (NOTIFY). Audited.';

-- What is paused: one row per paused queue (type null) or (queue, type).
create or replace function jq.jq_queue_pauses()
returns table (queue text, type text, paused_at timestamptz, paused_by text)
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select p.queue, p.type, p.paused_at, p.paused_by
      from jq.queue_pauses p
     order by p.queue, p.type nulls first
$$;
comment on function jq.jq_queue_pauses() is
    'Paused queues and (queue, type) pairs -> (queue, type null for the whole queue, paused_at, paused_by).';
