-- Internal helpers (names start with `_`, or are the two replaceable policy
-- functions jq.retry_delay and jq.error_fingerprint). Not granted to any role:
-- the public jq_* functions call them as their owner. The argument checks
-- (jq._check_*) are in checks.sql.

-- The one clock every jq function reads: now(), or, where the schema owner
-- turned the test clock on (update jq.settings set allow_test_clock = true),
-- the timestamp in the session setting jq.now:
--   set jq.now = '2026-01-01 08:00Z';   (reset jq.now to return to real time)
-- so retry, lease and schedule tests never sleep. Off by default: any role can
-- set jq.now in its own session, so honouring it everywhere would let a worker
-- steal live leases and a producer reopen idempotency windows.
-- PL/pgSQL, not SQL: a SQL function with a sub-select is not inlined, and
-- its body was planned again in every transaction (0.06 ms a call, twice
-- per jq_enqueue); PL/pgSQL keeps the plan for the session.
create or replace function jq._now()
returns timestamptz
language plpgsql
stable
as $$
begin
    if (select s.allow_test_clock from jq.settings s) then
        return coalesce(nullif(current_setting('jq.now', true), '')::timestamptz, now());
    end if;
    return now();
end
$$;
comment on function jq._now() is
    'Current time for jq: now(), or the timestamp in the jq.now setting when jq.settings.allow_test_clock is on (test databases only).';

-- The two replaceable policy functions are created only when absent: a DBA
-- who replaced one with CREATE OR REPLACE keeps the replacement through every
-- upgrade. (A release that must change a default does so in a migration.)

-- Delay before the next attempt after attempt number p_attempts failed.
-- About 2^n seconds (2 s, 4 s, 8 s, ... one hour at most), spread by +-25 %
-- so that jobs that failed together do not retry together; never under one
-- second. A DBA may CREATE OR REPLACE this function with another policy.
do $retry_delay$
begin
    if to_regprocedure('jq.retry_delay(integer)') is not null then
        return;  -- the default, or a DBA's replacement: kept either way
    end if;
    -- Flush left as in 0.1.0: a database keeps the body text it was given,
    -- and an upgraded one must match a fresh install.
create function jq.retry_delay(p_attempts integer)
returns interval
language sql
volatile
as $fn$
    select make_interval(secs =>
        greatest(1.0, least(3600.0, power(2, least(greatest(p_attempts, 1), 20)) * (0.75 + random() * 0.5))))
$fn$;
comment on function jq.retry_delay(integer) is
    'Retry backoff: delay after failed attempt n, about 2^n s with +-25% jitter, between 1 s and 1 h. Replaceable.';
end
$retry_delay$;

-- Normalises an error message so that errors differing only in ids, numbers
-- or quoted values fall into one dead-letter group:
--   'Timeout after 30s for inv_1' -> 'Timeout after 30s for ?'
-- Short numbers with an optional unit (503, 30s, 500ms) are kept because they
-- usually say what went wrong. Idempotent: f(f(x)) = f(x).
do $error_fingerprint$
begin
    if to_regprocedure('jq.error_fingerprint(text)') is not null then
        return;  -- the default, or a DBA's replacement: kept either way
    end if;
    -- Flush left as in 0.1.0: a database keeps the body text it was given,
    -- and an upgraded one must match a fresh install.
create function jq.error_fingerprint(p_error text)
returns text
language sql
immutable
parallel safe
as $fn$
    -- rtrim last: a cut at 200 characters may end on a space (keeps f(f(x)) = f(x))
    select rtrim(left(btrim(regexp_replace(
        -- word tokens holding a digit, except a number of at most 3 digits with a short unit
        regexp_replace(
        -- quoted values
        regexp_replace(regexp_replace(
        -- IPv4 addresses with optional port
        regexp_replace(
        -- hex literals and long hex runs
        regexp_replace(
        -- ISO timestamps
        regexp_replace(
        -- UUIDs
        regexp_replace(
            split_part(coalesce(p_error, ''), E'\n', 1),
            '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '?', 'g'),
            '\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?', '?', 'g'),
            '\m(0x[0-9a-fA-F]+|[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*)\M', '?', 'g'),
            '\m\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(:\d+)?', '?', 'g'),
            '''[^'']*''', '''?''', 'g'),
            '"[^"]*"', '"?"', 'g'),
            '\m(?!\d{1,3}[A-Za-z]{0,3}\M)\w*\d\w*\M', '?', 'g'),
        '\s+', ' ', 'g')), 200))
$fn$;
comment on function jq.error_fingerprint(text) is
    'Dead-letter grouping key: the first line of an error with ids, long numbers, UUIDs, timestamps and quoted values replaced by ?. Replaceable.';
end
$error_fingerprint$;

-- Whether a taken idempotency key is free again: its window is over and its
-- job has left jq.jobs. The rule jq._take_idempotency_keys applies.
create or replace function jq._key_is_free(p_expires_at timestamptz, p_job_id uuid, p_now timestamptz)
returns boolean
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
as $$
    select p_expires_at <= p_now and not exists (select 1 from jq.jobs j where j.id = p_job_id)
$$;

-- Takes the idempotency keys of new jobs, set-based: element i asks for key
-- p_keys[i] in queue p_queues[i] for job p_job_ids[i]. Returns, in input
-- order, the job that holds each element's key afterwards: the element's own
-- id when it took the key (or has no key), another job's when the key was
-- taken (by a live job, or within its window), the first element's when the
-- batch repeats a key. Two sessions racing on one key: the second waits on
-- the primary key until the first commits, then finds the first one's job.
-- A key held by a live job is only read, never locked: the duplicate's
-- transaction must not hold up the worker finishing the original.
-- Called by jq_enqueue (one element), jq_enqueue_many and jq_schedules_fire.
create or replace function jq._take_idempotency_keys(
    p_queues text[], p_keys text[], p_job_ids uuid[], p_now timestamptz)
returns uuid[]
language plpgsql
as $$
declare
    v_expires_at timestamptz := p_now + (select s.idempotency_window from jq.settings s);
    v_holders    uuid[];
begin
    if cardinality(p_job_ids) = 1 then
        -- jq_enqueue's one key, the same steps without the arrays (a third of the cost).
        if p_keys[1] is null then
            return p_job_ids;
        end if;
        delete from jq.idempotency_keys k
         where k.queue = p_queues[1] and k.idempotency_key = p_keys[1]
           and jq._key_is_free(k.expires_at, k.job_id, p_now);
        insert into jq.idempotency_keys (queue, idempotency_key, job_id, expires_at)
        values (p_queues[1], p_keys[1], p_job_ids[1], v_expires_at)
        on conflict do nothing;
        if not found then
            select array[k.job_id] into v_holders
              from jq.idempotency_keys k where k.queue = p_queues[1] and k.idempotency_key = p_keys[1];
            return v_holders;
        end if;
        return p_job_ids;
    end if;
    delete from jq.idempotency_keys k
     using unnest(p_queues, p_keys) as i(queue, key)
     where k.queue = i.queue and k.idempotency_key = i.key and jq._key_is_free(k.expires_at, k.job_id, p_now);
    -- Key order, so two batches taking the same keys cannot deadlock.
    insert into jq.idempotency_keys (queue, idempotency_key, job_id, expires_at)
    select f.queue, f.key, f.id, v_expires_at
      from (select distinct on (i.queue, i.key) i.queue, i.key, i.id
              from unnest(p_queues, p_keys, p_job_ids) with ordinality as i(queue, key, id, ord)
             where i.key is not null
             order by i.queue, i.key, i.ord) f
     order by f.queue, f.key
    on conflict do nothing;
    -- A new statement: it sees the keys other sessions committed while we
    -- waited. One index probe per element (a join may be planned as a scan).
    select array_agg(case when i.key is null then i.id
                          else (select k.job_id from jq.idempotency_keys k
                                 where k.queue = i.queue and k.idempotency_key = i.key) end
                     order by i.ord) into v_holders
      from unnest(p_queues, p_keys, p_job_ids) with ordinality as i(queue, key, id, ord);
    return v_holders;
end
$$;

-- Moves jobs out of jq.jobs for good, the one path every finisher takes: to
-- jq.job_history as succeeded or cancelled, or to jq.dead_jobs. Restarts the
-- idempotency window of their keys. p_worker null: the caller has locked the
-- rows and decided the outcome (jq_fail, jq_cancel, jq_release,
-- jq._reap_expired); p_worker given: only jobs that worker still holds
-- (jq_complete, which needs no lock of its own). p_results: what the
-- handlers returned, parallel to p_ids (succeeded only; null: none). Returns
-- the ids moved.
create or replace function jq._retire_jobs(
    p_ids uuid[], p_outcome text, p_error text, p_now timestamptz, p_worker text default null,
    p_results jsonb[] default null)
returns setof uuid
language plpgsql
as $$
begin
    if p_outcome = 'dead' then
        return query
        with gone as (
            delete from jq.jobs j
             where j.id = any(p_ids) and (p_worker is null or (j.status = 'processing' and j.locked_by = p_worker))
            returning *
        ), buried as (
            insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts,
                                      idempotency_key, tenant, concurrency_key, last_error, error_fingerprint,
                                      created_at, failed_at, orphaned, attempt_log, metadata)
            select g.id, g.queue, g.type, g.payload, g.priority, g.run_at, g.attempts, g.max_attempts,
                   g.idempotency_key, g.tenant, g.concurrency_key, e.error, jq.error_fingerprint(e.error),
                   g.created_at, p_now, g.orphaned, g.attempt_log, g.metadata
              from gone g
             cross join lateral (select coalesce(p_error, g.last_error, 'unknown error') as error) e
            returning id, queue, idempotency_key
        ), keys as (
            update jq.idempotency_keys k
               set expires_at = p_now + (select idempotency_window from jq.settings)
              from buried b
             where b.idempotency_key is not null
               and k.queue = b.queue and k.idempotency_key = b.idempotency_key and k.job_id = b.id
        )
        select b.id from buried b;
    elsif p_outcome in ('succeeded', 'cancelled') then
        return query
        with gone as (
            delete from jq.jobs j
             where j.id = any(p_ids) and (p_worker is null or (j.status = 'processing' and j.locked_by = p_worker))
            returning *
        ), recorded as (
            insert into jq.job_history (id, queue, type, tenant, status, attempts, max_attempts,
                                        idempotency_key, last_error, run_at, created_at, finished_at, orphaned,
                                        attempt_log, result, metadata)
            select g.id, g.queue, g.type, g.tenant, p_outcome, g.attempts, g.max_attempts,
                   g.idempotency_key, coalesce(p_error, g.last_error), g.run_at, g.created_at, p_now, g.orphaned,
                   g.attempt_log, r.result, g.metadata
              from gone g
              -- The first result given for each id; no unnest at all without results.
              left join (select distinct on (i.id) i.id, i.result
                           from unnest(p_ids, p_results) with ordinality as i(id, result, ord)
                          where p_results is not null and i.result is not null
                          order by i.id, i.ord) r on r.id = g.id
            returning id, queue, idempotency_key
        ), keys as (
            update jq.idempotency_keys k
               set expires_at = p_now + (select idempotency_window from jq.settings)
              from recorded r
             where r.idempotency_key is not null
               and k.queue = r.queue and k.idempotency_key = r.idempotency_key and k.job_id = r.id
        )
        select r.id from recorded r;
    else
        raise exception 'unknown outcome %', p_outcome using errcode = '22023';
    end if;
end
$$;

-- jq._retire_jobs for callers that want only the count (jq_fail, jq_cancel,
-- jq_release, jq._reap_expired, and jq_claim's dead-lettering).
create or replace function jq._retire(
    p_ids uuid[], p_outcome text, p_error text, p_now timestamptz)
returns integer
language sql
as $$
    select count(*)::integer from jq._retire_jobs(p_ids, p_outcome, p_error, p_now)
$$;

-- Expired leases in one queue (jq_claim reaps its queue first, jq_maintain
-- every queue), by the rule of jq._orphan_jobs (workers.sql): a job whose
-- worker held nothing else has used an attempt (dead-lettered when that was
-- its last: a job that kills its worker every time must not loop forever);
-- jobs expiring in a worker that held several get the attempt back, since
-- any of them may have killed it; a job whose cancellation was requested is
-- cancelled. The worker's name is quoted in the error so that
-- jq.error_fingerprint groups expiries from every worker together.
create or replace function jq._reap_expired(p_queue text, p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_ids uuid[];
begin
    -- Looked for first: nearly every claim finds none, and the probe spares
    -- it the sort and row locks over every partition.
    if not exists (select 1 from jq.jobs e
                    where e.queue = p_queue and e.status = 'processing' and e.locked_until < p_now) then
        return 0;
    end if;
    select array_agg(id) into v_ids
      from (select id
              from jq.jobs
             where queue = p_queue and status = 'processing' and locked_until < p_now
             order by locked_until
             limit 1000
               for update skip locked) expired;
    return jq._orphan_jobs(v_ids, p_now, 'lease expired');
end
$$;

-- NOTIFY jq_<queue> once per statement for each queue that received ready
-- jobs and has a worker waiting (jq.queue_waiters); payload ''. A statement
-- that inserted only jobs due within the next minute notifies waiting
-- workers with the payload 'at <epoch seconds>' of the earliest, so they
-- wake at its run_at rather than at their next poll. Statement-level, and
-- only on insert: claim, complete and fail never notify.
--
-- NOTIFY serialises every notifying commit on a database-wide lock
-- (measured: 8 connections enqueueing fell from about 1,600 to 280
-- commits/s), so notifications are rationed:
-- * a queue whose workers are all busy has no mark and is not notified
--   (they claim again as soon as a slot frees);
-- * a notification uses the marks up: the first insert after a worker marked
--   itself waiting takes the queue's marks and notifies; later inserts find
--   none and do not, until a woken worker's claim comes back short and it
--   marks itself again. Marks another insert is taking at this moment are
--   skipped: that insert sends the notification.
create or replace function jq._notify_ready()
returns trigger
language plpgsql
as $$
declare
    v_now   timestamptz := jq._now();
    v_queue text;
    v_ready boolean;
    v_next  timestamptz;
begin
    for v_queue, v_ready, v_next in
        select n.queue, bool_or(n.run_at <= v_now), min(n.run_at) filter (where n.run_at > v_now)
          from new_jobs n
         where n.status = 'pending'
         group by n.queue
    loop
        if v_ready then
            perform jq._wake_queue(v_queue);
        elsif v_next <= v_now + interval '1 minute'
              and exists (select 1 from jq.queue_waiters w where w.queue = v_queue) then
            -- A job due within the minute: tell waiting workers when, so they
            -- wake at its run_at instead of at their next poll. The marks stay.
            perform pg_notify(jq._channel(v_queue), 'at ' || extract(epoch from v_next));
        end if;
    end loop;
    return null;
end
$$;

-- The NOTIFY channel of a queue. Channel names are limited to 63 bytes and
-- queue names to 64 ASCII characters, so long names are cut (two long queues
-- sharing a channel only cost a spurious wake-up).
create or replace function jq._channel(p_queue text)
returns text
language sql
immutable
as $$
    select 'jq_' || left(p_queue, 60)
$$;

-- The NOTIFY trigger of jq.jobs, (re)created only when it is missing or
-- differs: CREATE TRIGGER locks jq.jobs against every insert, update and
-- delete until the install commits, so an install that changes nothing
-- leaves it alone, and one that changes it takes the install's table locks
-- first (jq._install_lock_tables).
do $trigger$
declare
    v_definition constant text := 'CREATE TRIGGER jobs_notify_ready AFTER INSERT ON jq.jobs'
        ' REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION jq._notify_ready()';
    v_path       constant text := current_setting('search_path');
    v_installed  text;
begin
    -- pg_get_triggerdef qualifies names by the search_path: compare with none.
    perform set_config('search_path', 'pg_catalog', true);
    select pg_get_triggerdef(t.oid) into v_installed
      from pg_trigger t
     where t.tgrelid = 'jq.jobs'::regclass and t.tgname = 'jobs_notify_ready' and t.tgparentid = 0;
    perform set_config('search_path', v_path, true);
    if v_installed is distinct from v_definition then
        perform jq._install_lock_tables();
        execute replace(v_definition, 'CREATE TRIGGER', 'CREATE OR REPLACE TRIGGER');
    end if;
end
$trigger$;

-- Moves dead jobs back into jq.jobs, ready now with fresh attempts, keeping
-- their id, payload, idempotency and concurrency keys and last error (the
-- move of jq_retry_dead and jq_dead_requeue). Returns how many.
create or replace function jq._requeue_dead_jobs(p_ids uuid[], p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_count integer;
begin
    with moved as (
        delete from jq.dead_jobs d where d.id = any(p_ids) returning d.*
    ), requeued as (
        insert into jq.jobs (id, queue, type, payload, priority, run_at, status, attempts, max_attempts,
                             idempotency_key, tenant, concurrency_key, last_error, created_at, attempt_log, metadata)
        select m.id, m.queue, m.type, m.payload, m.priority, p_now, 'pending', 0, m.max_attempts,
               m.idempotency_key, m.tenant, m.concurrency_key, m.last_error, m.created_at, m.attempt_log, m.metadata
          from moved m
        returning 1
    )
    select count(*) into v_count from requeued;
    return v_count;
end
$$;
