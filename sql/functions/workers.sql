-- The worker registry, the rescue of a dead worker's jobs, and poison
-- containment (docs/operations.md, "Worker crashes and poison jobs").
--
-- A worker registers (jq_worker_register), beats every few seconds
-- (jq_worker_beat, one statement) and deregisters on a clean stop. One that
-- stays silent for settings.worker_gone_after (15 s) is declared gone by the
-- next claim or jq_maintain of any other worker (jq._rescue_gone_workers),
-- and the jobs it held go back to the queue at once instead of at lease
-- expiry. A worker that is only paused and beats again later finds it was
-- declared gone ('was_gone'); its completions of the jobs given back are
-- refused (jq_complete, jq_fail: lease_lost).
--
-- Blame. A worker that dies holding one job died of it, perhaps: that attempt
-- counts. One that dies holding several could have been killed by any of
-- them: none of their attempts counts, and each is marked orphaned once more.
-- A job orphaned twice is a suspect and runs in isolation: only a worker that
-- holds nothing takes it, alone, and takes nothing else until it is done (the
-- claim asks jq._worker_isolation). Its next crash therefore lands on it, and
-- a job that kills every worker it runs in is dead after max_attempts
-- isolated runs, while the jobs that were beside it lose no attempt. Expired
-- leases (jq._reap_expired) follow the same rule.

-- Jobs (locked by the caller, processing) that lost their worker: it died,
-- was declared gone, or their lease expired. p_cause: 'lease expired' or
-- 'worker gone'. Per job: cancelled when its cancellation was requested;
-- blamed when its worker held nothing else (the attempt counts: dead on the
-- last one, pending otherwise); spared when it held others (the attempt is
-- given back, orphaned + 1). A job spared ten times is blamed anyway, so no
-- client that ignores isolation can keep a killer going for ever. Every lost
-- attempt, spared or not, joins the job's attempt log (jq_job_attempts) with
-- its cause as the error: a job that keeps killing its worker shows each
-- crash. (A cancelled one keeps its log and last error: it ends cancelled,
-- not failed.) Returns how many jobs it handled.
create or replace function jq._orphan_jobs(p_ids uuid[], p_now timestamptz, p_cause text)
returns integer
language plpgsql
as $$
declare
    v_dead      uuid[];
    v_cancelled uuid[];
    v_spared    uuid[];
begin
    if p_ids is null or cardinality(p_ids) = 0 then
        return 0;
    end if;
    select array_agg(o.id) filter (where not o.cancel_requested and o.blamed and o.attempts >= o.max_attempts),
           array_agg(o.id) filter (where o.cancel_requested),
           array_agg(o.id) filter (where not o.cancel_requested and not o.blamed)
      into v_dead, v_cancelled, v_spared
      from (select j.id, j.cancel_requested, j.attempts, j.max_attempts,
                   j.orphaned >= 10 or (select count(*) from jq.jobs h
                                         where h.status = 'processing' and h.locked_by = j.locked_by) <= 1 as blamed
              from jq.jobs j
             where j.id = any(p_ids) and j.status = 'processing') o;
    update jq.jobs j
       set (last_error, attempt_log) =
           (select e.error, jq._attempt_log_append(j.attempt_log, j.attempts, p_now, j.locked_by, e.error)
              from (select jq._lost_attempt_error(p_cause, j.locked_by, j.attempts, j.max_attempts, j.locked_until,
                                                  j.id = any(v_spared), j.id = any(v_dead)) as error) e)
     where j.id = any(p_ids) and j.status = 'processing' and not j.cancel_requested;
    if v_dead is not null then
        perform jq._retire(v_dead, 'dead', null, p_now);
    end if;
    if v_cancelled is not null then
        perform jq._retire(v_cancelled, 'cancelled', null, p_now);
    end if;
    update jq.jobs
       set status = 'pending', locked_by = null, locked_until = null, deferred = run_at > p_now,
           attempts = case when id = any(v_spared) then greatest(attempts - 1, 0) else attempts end,
           orphaned = case when id = any(v_spared) then least(orphaned + 1, 1000) else orphaned end
     where id = any(p_ids) and status = 'processing';
    return cardinality(p_ids);
end
$$;

-- Why an attempt was lost (jq._orphan_jobs): its job's last_error and its
-- entry in the attempt log. Stable: the lease's end is written in the
-- session's TimeZone.
create or replace function jq._lost_attempt_error(
    p_cause text, p_worker text, p_attempt integer, p_max_attempts integer, p_locked_until timestamptz,
    p_spared boolean, p_dead boolean)
returns text
language sql
stable
as $$
    select case
        when p_spared
        then format('%s: worker "%s" was lost holding other jobs too; attempt %s not counted',
                    p_cause, p_worker, p_attempt)
        when p_cause = 'worker gone'
        then format('worker gone: worker "%s" stopped heartbeating during attempt %s%s',
                    p_worker, p_attempt, case when p_dead then format(' of %s', p_max_attempts) else '' end)
        else format('lease expired: worker "%s" did not finish attempt %s%s by %s',
                    p_worker, p_attempt, case when p_dead then format(' of %s', p_max_attempts) else '' end,
                    p_locked_until)
    end
$$;

-- Declares gone the registered workers silent for settings.worker_gone_after
-- (at most 100 a call, skipping rows another caller is declaring) and hands
-- their jobs back by jq._orphan_jobs. Called by every claim (before it looks
-- for jobs) and by jq_maintain; costs one index probe when no one is silent.
-- Returns the number of jobs handed back.
create or replace function jq._rescue_gone_workers(p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_names text[];
    v_ids   uuid[];
    v_since timestamptz := p_now - (select s.worker_gone_after from jq.settings s);
begin
    -- The common case, no one silent: one probe of workers_last_seen_idx, no row locks.
    if not exists (select 1 from jq.workers w where w.gone_at is null and w.last_seen < v_since) then
        return 0;
    end if;
    with silent as (
        select w.name
          from jq.workers w
         where w.gone_at is null and w.last_seen < v_since
         order by w.last_seen
         limit 100
           for update skip locked
    ), gone as (
        update jq.workers w
           set gone_at = p_now
          from silent
         where w.name = silent.name
        returning w.name
    )
    select array_agg(gone.name) into v_names from gone;
    if v_names is null then
        return 0;
    end if;
    select array_agg(j.id) into v_ids
      from (select j.id from jq.jobs j
             where j.status = 'processing' and j.locked_by = any(v_names)
             order by j.id
               for update skip locked) j;
    return jq._orphan_jobs(v_ids, p_now, 'worker gone');
end
$$;

-- What a claim of p_worker may take, as to suspects: 'isolated' (it holds a
-- suspect: nothing else until that is done), 'idle' (it holds nothing: it
-- may take one suspect, alone) or 'busy' (only jobs that are not suspects).
create or replace function jq._worker_isolation(p_worker text)
returns text
language plpgsql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
as $$
declare
    v_orphaned smallint;
begin
    -- PL/pgSQL, not SQL: its query is planned once per session (a SQL function called from
    -- jq_claim would be planned on every claim).
    select h.orphaned into v_orphaned
      from jq.jobs h
     where h.status = 'processing' and h.locked_by = p_worker
     order by h.orphaned desc
     limit 1;
    return case when v_orphaned is null then 'idle' when v_orphaned >= 2 then 'isolated' else 'busy' end;
end
$$;

-- The queues argument of jq_worker_register: a JSON object of queue name ->
-- slots (a positive integer).
create or replace function jq._check_worker_queues(p_queues jsonb)
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_not_null(p_queues, 'queues');
    if jsonb_typeof(p_queues) <> 'object' or p_queues = '{}'
       or exists (select 1 from jsonb_each(p_queues) q
                   where not jq._is_queue_name(q.key) or jsonb_typeof(q.value) <> 'number'
                      or (q.value)::numeric < 1 or (q.value)::numeric <> trunc((q.value)::numeric)) then
        perform jq._raise_bad_argument('queues must be an object of queue name -> slots', '22023',
                                       'e.g. {"default": 10, "urgent": 2}');
    end if;
end
$$;

-- The types argument of jq_worker_register: null (the worker does not say
-- which types it handles: any, as far as jq knows), or 1 to 10,000 job
-- types, each a type as jq_enqueue takes it (not blank, at most 128
-- characters).
create or replace function jq._check_worker_types(p_types text[])
returns void
language plpgsql
immutable
as $$
begin
    if p_types is null then
        return;
    end if;
    if cardinality(p_types) not between 1 and 10000 then
        perform jq._raise_bad_argument('types must name 1 to 10000 job types', '22023',
                                       'Pass null when the worker does not say which types it handles.');
    end if;
    if exists (select 1 from unnest(p_types) t where not coalesce(jq._is_filled_text(t, 128), false)) then
        perform jq._raise_bad_argument('types must hold job types (not null or blank, at most 128 characters)',
                                       '22023');
    end if;
end
$$;

-- Registers a worker as it starts, or again (the same host and pid: it keeps
-- its jobs). A row of the same name from another process (host, pid) is
-- replaced, and the jobs that process still held go back to the queue: the
-- process starting now holds none of them. p_types: the job types it
-- handles (null: it does not say; jq_unhandled_types then reports nothing
-- for its queues). Returns the registration, with the silence after which the worker is declared gone:
-- beat at least every fifth of it (pyjq: every 3 s of the default 15 s).
create or replace function jq.jq_worker_register(
    p_worker  text,
    p_queues  jsonb,
    p_host    text default null,
    p_pid     integer default null,
    p_version text default null,
    p_types   text[] default null)
returns table (worker text, started_at timestamptz, gone_after interval)
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
    v_now  timestamptz := jq._now();
    v_host text := coalesce(p_host, host(inet_client_addr()), 'local');
    v_pid  integer := coalesce(p_pid, 0);
    v_ids  uuid[];
begin
    perform jq._check_worker(p_worker);
    perform jq._check_worker_queues(p_queues);
    perform jq._check_text(p_host, 'host', 255, true);
    perform jq._check_text(p_version, 'version', 64, true);
    perform jq._check_worker_types(p_types);
    -- Another process of this name (not this one registering again): what it
    -- held is orphaned.
    if exists (select 1 from jq.workers w
                where w.name = p_worker and (w.host, w.pid) is distinct from (v_host, v_pid)) then
        select array_agg(j.id) into v_ids
          from (select j.id from jq.jobs j
                 where j.status = 'processing' and j.locked_by = p_worker
                 order by j.id
                   for update) j;
        perform jq._orphan_jobs(v_ids, v_now, 'worker gone');
    end if;
    return query
    insert into jq.workers as w (name, host, pid, queues, version, types, started_at, last_seen, gone_at)
    values (p_worker, v_host, v_pid, p_queues,
            coalesce(p_version, 'unknown'), (select array_agg(distinct t order by t) from unnest(p_types) t),
            v_now, v_now, null)
    on conflict (name) do update
       set host = excluded.host, pid = excluded.pid, queues = excluded.queues, version = excluded.version,
           types = excluded.types, started_at = excluded.started_at, last_seen = excluded.last_seen, gone_at = null
    returning w.name, w.started_at, (select s.worker_gone_after from jq.settings s);
end
$$;
comment on function jq.jq_worker_register(text, jsonb, text, integer, text, text[]) is
    'Register a starting worker (worker, queues {queue: slots}, host, pid, version, types it handles or null); jobs a previous process of that name held are requeued. -> (worker, started_at, gone_after): beat well within gone_after.';

-- The worker's heartbeat: one statement every few seconds, whatever it runs.
-- Returns 'ok'; 'was_gone' when it had been declared gone meanwhile (the
-- jobs it held then were given back: drop them; it is registered as alive
-- again from now); 'unknown' when it is not registered (call
-- jq_worker_register).
create or replace function jq.jq_worker_beat(p_worker text)
returns text
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
declare
    v_gone_at timestamptz;
begin
    perform jq._check_worker(p_worker);
    select w.gone_at into v_gone_at from jq.workers w where w.name = p_worker for update;
    if not found then
        return 'unknown';
    end if;
    update jq.workers w set last_seen = jq._now(), gone_at = null where w.name = p_worker;
    return case when v_gone_at is null then 'ok' else 'was_gone' end;
end
$$;
comment on function jq.jq_worker_beat(text) is
    'A registered worker''s heartbeat (worker), one statement every few seconds -> ok | was_gone (declared gone meanwhile: the jobs it held were requeued) | unknown (register again).';

-- A clean stop: removes the registration. Jobs the worker still holds (it
-- should have released them) go back to the queue at once. Returns how many.
create or replace function jq.jq_worker_deregister(p_worker text)
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
    v_ids uuid[];
begin
    perform jq._check_worker(p_worker);
    delete from jq.workers w where w.name = p_worker;
    select array_agg(j.id) into v_ids
      from (select j.id from jq.jobs j
             where j.status = 'processing' and j.locked_by = p_worker
             order by j.id
               for update) j;
    return jq._orphan_jobs(v_ids, jq._now(), 'worker gone');
end
$$;
comment on function jq.jq_worker_deregister(text) is
    'Remove a stopping worker''s registration (worker); jobs it still holds are requeued at once. -> the number requeued.';

-- The registered workers, newest first: state alive (beat within
-- gone_after), silent (no beat for gone_after: the next claim declares it
-- gone) or gone (declared gone; kept an hour); running = jobs it holds now;
-- types = the job types it registered (null: it did not say).
create or replace function jq.jq_workers()
returns table (
    worker     text,
    host       text,
    pid        integer,
    queues     jsonb,
    version    text,
    started_at timestamptz,
    last_seen  timestamptz,
    state      text,
    running    integer,
    types      text[])
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select w.name, w.host, w.pid, w.queues, w.version, w.started_at, w.last_seen,
           case when w.gone_at is not null then 'gone'
                when w.last_seen < jq._now() - s.worker_gone_after then 'silent'
                else 'alive' end,
           (select count(*)::integer from jq.jobs j where j.status = 'processing' and j.locked_by = w.name),
           w.types
      from jq.workers w
     cross join jq.settings s
     order by w.started_at desc, w.name
$$;
comment on function jq.jq_workers() is
    'Registered workers -> (worker, host, pid, queues, version, started_at, last_seen, state alive|silent|gone, running jobs, types it handles or null).';

-- A claim's isolated run: leases to p_worker (which holds nothing) the
-- oldest due suspect of the queue, alone, as jq_claim returns jobs; none
-- when no suspect is due (of the given types, with room under its key cap).
-- Picked first and leased only when there is one: every claim of an idle
-- worker comes here, nearly always to find none, and an UPDATE of jq.jobs
-- opens every partition even when it changes nothing; the lease, given the
-- generation, opens one.
create or replace function jq._claim_suspect(
    p_queue text, p_worker text, p_lease interval, p_now timestamptz, p_types text[])
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
    metadata        jsonb)
language plpgsql
as $$
declare
    v_id         uuid;
    v_generation smallint;
begin
    select s.id, s.generation into v_id, v_generation
      from jq.jobs s
     where s.queue = p_queue and s.status = 'pending' and s.orphaned >= 2 and s.run_at <= p_now
       and (p_types is null or s.type = any(p_types))
       and (s.concurrency_key is null or jq._key_room(s.type, s.concurrency_key) > 0)
     order by s.run_at
     limit 1
       for update skip locked;
    if v_id is null then
        return;
    end if;
    return query
    update jq.jobs j
       set status = 'processing', locked_by = p_worker, locked_until = p_now + p_lease, attempts = j.attempts + 1
     where j.generation = v_generation and j.id = v_id
    returning j.id, j.queue, j.type, j.payload, j.priority, j.attempts, j.max_attempts, j.tenant,
              j.run_at, j.created_at, j.locked_until, j.idempotency_key, j.last_error, j.metadata;
end
$$;
