-- Internal helpers (names start with `_`, or are the two replaceable policy
-- functions jq.retry_delay and jq.error_fingerprint). Not granted to any role:
-- the public jq_* functions call them as their owner.

-- The one clock every jq function reads: now(), or, where the schema owner
-- turned the test clock on (update jq.settings set allow_test_clock = true),
-- the timestamp in the session setting jq.now:
--   set jq.now = '2026-01-01 08:00Z';   (reset jq.now to return to real time)
-- so retry, lease and schedule tests never sleep. Off by default: any role can
-- set jq.now in its own session, so honouring it everywhere would let a worker
-- steal live leases and a producer reopen idempotency windows.
create or replace function jq._now()
returns timestamptz
language sql
stable
as $$
    select case when (select s.allow_test_clock from jq.settings s)
                then coalesce(nullif(current_setting('jq.now', true), '')::timestamptz, now())
                else now() end
$$;
comment on function jq._now() is
    'Current time for jq: now(), or the timestamp in the jq.now setting when jq.settings.allow_test_clock is on (test databases only).';

-- Delay before the next attempt after attempt number p_attempts failed.
-- About 2^n seconds (2 s, 4 s, 8 s, ... one hour at most), spread by +-25 %
-- so that jobs that failed together do not retry together; never under one
-- second. A DBA may CREATE OR REPLACE this function with another policy.
create or replace function jq.retry_delay(p_attempts integer)
returns interval
language sql
volatile
as $$
    select make_interval(secs =>
        greatest(1.0, least(3600.0, power(2, least(greatest(p_attempts, 1), 20)) * (0.75 + random() * 0.5))))
$$;
comment on function jq.retry_delay(integer) is
    'Retry backoff: delay after failed attempt n, about 2^n s with +-25% jitter, between 1 s and 1 h. Replaceable.';

-- Normalises an error message so that errors differing only in ids, numbers
-- or quoted values fall into one dead-letter group:
--   'Timeout after 30s for inv_1' -> 'Timeout after 30s for ?'
-- Short numbers with an optional unit (503, 30s, 500ms) are kept because they
-- usually say what went wrong. Idempotent: f(f(x)) = f(x).
create or replace function jq.error_fingerprint(p_error text)
returns text
language sql
immutable
parallel safe
as $$
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
$$;
comment on function jq.error_fingerprint(text) is
    'Dead-letter grouping key: the first line of an error with ids, long numbers, UUIDs, timestamps and quoted values replaced by ?. Replaceable.';

-- A job's concurrency_key: null (no cap), or 1..255 characters, not blank.
create or replace function jq._check_concurrency_key(p_key text, p_prefix text default '')
returns void
language plpgsql
immutable
as $$
begin
    if p_key is not null then
        if btrim(p_key) = '' then
            raise exception '%concurrency_key must not be empty', p_prefix
                using errcode = '22023', hint = 'Pass null for no key.';
        elsif char_length(p_key) > 255 then
            raise exception '%concurrency_key is % characters long; the limit is 255', p_prefix, char_length(p_key)
                using errcode = '22001';
        end if;
    end if;
end
$$;

-- Argument checks shared by jq_enqueue and jq_enqueue_many. Each failure names
-- the argument (p_prefix lets enqueue_many say which element) and raises a
-- standard SQLSTATE: 22004 for a missing value, 22001 for a value too long,
-- 22023 for anything else out of range.
create or replace function jq._check_job(
    p_type text, p_payload jsonb, p_queue text, p_priority integer,
    p_max_attempts integer, p_idempotency_key text, p_tenant text,
    p_prefix text default '')
returns void
language plpgsql
stable  -- reads the payload bounds in jq.settings
as $$
begin
    if p_type is null then
        raise exception '%type must not be null', p_prefix using errcode = '22004';
    elsif btrim(p_type) = '' then
        raise exception '%type must not be empty', p_prefix using errcode = '22023';
    elsif char_length(p_type) > 128 then
        raise exception '%type is % characters long; the limit is 128', p_prefix, char_length(p_type)
            using errcode = '22001';
    end if;
    if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
        raise exception '%payload must be a JSON object, not %', p_prefix, jsonb_typeof(p_payload)
            using errcode = '22023', hint = 'Wrap the value in an object, e.g. {"value": ...}.';
    end if;
    perform jq._check_payload(p_payload, p_prefix || 'payload');
    if p_queue is null then
        raise exception '%queue must not be null', p_prefix using errcode = '22004';
    elsif char_length(p_queue) > 64 then
        raise exception '%queue is % characters long; the limit is 64', p_prefix, char_length(p_queue)
            using errcode = '22001';
    elsif p_queue !~ '^[A-Za-z0-9_.:-]+$' then
        raise exception '%queue % is not a valid queue name', p_prefix, quote_literal(p_queue)
            using errcode = '22023', hint = 'Queue names use letters, digits and _ . : - only.';
    end if;
    if p_priority is null then
        raise exception '%priority must not be null', p_prefix using errcode = '22004';
    elsif p_priority not between -32768 and 32767 then
        raise exception '%priority % is out of range', p_prefix, p_priority
            using errcode = '22023', hint = 'Priority is a smallint: -32768 to 32767, higher runs first.';
    end if;
    if p_max_attempts is not null and p_max_attempts not between 1 and 1000 then
        raise exception '%max_attempts % is out of range', p_prefix, p_max_attempts
            using errcode = '22023', hint = 'max_attempts must be between 1 and 1000.';
    end if;
    if p_idempotency_key is not null then
        if btrim(p_idempotency_key) = '' then
            raise exception '%idempotency_key must not be empty', p_prefix
                using errcode = '22023', hint = 'Pass null for no key.';
        elsif char_length(p_idempotency_key) > 255 then
            raise exception '%idempotency_key is % characters long; the limit is 255',
                p_prefix, char_length(p_idempotency_key) using errcode = '22001';
        end if;
    end if;
    if p_tenant is not null then
        if btrim(p_tenant) = '' then
            raise exception '%tenant must not be empty', p_prefix
                using errcode = '22023', hint = 'Pass null for no tenant.';
        elsif char_length(p_tenant) > 128 then
            raise exception '%tenant is % characters long; the limit is 128', p_prefix, char_length(p_tenant)
                using errcode = '22001';
        end if;
    end if;
end
$$;

-- Shared by the functions that take a worker name and job ids.
create or replace function jq._check_worker(p_worker text)
returns void
language plpgsql
immutable
as $$
begin
    if p_worker is null then
        raise exception 'worker must not be null' using errcode = '22004',
            hint = 'Use a name unique to the worker process, e.g. host:pid:random.';
    elsif btrim(p_worker) = '' then
        raise exception 'worker must not be empty' using errcode = '22023',
            hint = 'Use a name unique to the worker process, e.g. host:pid:random.';
    elsif char_length(p_worker) > 255 then
        raise exception 'worker is % characters long; the limit is 255', char_length(p_worker)
            using errcode = '22001';
    end if;
end
$$;

create or replace function jq._check_lease(p_lease interval)
returns void
language plpgsql
immutable
as $$
begin
    if p_lease is null then
        raise exception 'lease must not be null' using errcode = '22004';
    elsif p_lease < interval '1 second' or p_lease > interval '7 days' then
        raise exception 'lease % is out of range', p_lease using errcode = '22023',
            hint = 'A lease lasts between 1 second and 7 days; heartbeat to extend it.';
    end if;
end
$$;

-- Takes the idempotency key for a new job, or returns the job that holds it.
-- A key whose window is over and whose job has left jq.jobs is free again.
-- Two sessions racing on one key: the second waits on the primary key until
-- the first commits, then finds the first one's job.
create or replace function jq._take_idempotency_key(
    p_queue text, p_key text, p_job_id uuid, p_now timestamptz)
returns uuid
language plpgsql
as $$
declare
    v_holder uuid;
begin
    delete from jq.idempotency_keys k
     where k.queue = p_queue and k.idempotency_key = p_key and k.expires_at <= p_now
       and not exists (select 1 from jq.jobs j where j.id = k.job_id);
    insert into jq.idempotency_keys (queue, idempotency_key, job_id, expires_at)
    values (p_queue, p_key, p_job_id, p_now + (select idempotency_window from jq.settings))
    on conflict do nothing;
    if found then
        return p_job_id;
    end if;
    select k.job_id into v_holder
      from jq.idempotency_keys k
     where k.queue = p_queue and k.idempotency_key = p_key;
    return v_holder;
end
$$;

-- Moves jobs out of jq.jobs for good: to jq.job_history as succeeded or
-- cancelled, or to jq.dead_jobs. The caller has locked the rows and decided
-- the outcome. Restarts the idempotency window of their keys.
create or replace function jq._retire(
    p_ids uuid[], p_outcome text, p_error text, p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_count integer;
begin
    if p_outcome = 'dead' then
        with gone as (
            delete from jq.jobs where id = any(p_ids) returning *
        ), buried as (
            insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts,
                                      idempotency_key, tenant, concurrency_key, last_error, error_fingerprint,
                                      created_at, failed_at)
            select g.id, g.queue, g.type, g.payload, g.priority, g.run_at, g.attempts, g.max_attempts,
                   g.idempotency_key, g.tenant, g.concurrency_key, e.error, jq.error_fingerprint(e.error),
                   g.created_at, p_now
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
        select count(*) into v_count from buried;
    elsif p_outcome in ('succeeded', 'cancelled') then
        with gone as (
            delete from jq.jobs where id = any(p_ids) returning *
        ), recorded as (
            insert into jq.job_history (id, queue, type, tenant, status, attempts, max_attempts,
                                        idempotency_key, last_error, run_at, created_at, finished_at)
            select g.id, g.queue, g.type, g.tenant, p_outcome, g.attempts, g.max_attempts,
                   g.idempotency_key, coalesce(p_error, g.last_error), g.run_at, g.created_at, p_now
              from gone g
            returning id, queue, idempotency_key
        ), keys as (
            update jq.idempotency_keys k
               set expires_at = p_now + (select idempotency_window from jq.settings)
              from recorded r
             where r.idempotency_key is not null
               and k.queue = r.queue and k.idempotency_key = r.idempotency_key and k.job_id = r.id
        )
        select count(*) into v_count from recorded;
    else
        raise exception 'unknown outcome %', p_outcome using errcode = '22023';
    end if;
    return v_count;
end
$$;

-- Expired leases in one queue: a lease that ran out counts as a used attempt.
-- The worker's name is quoted in the error so that jq.error_fingerprint
-- groups expiries from every worker together.
-- The job goes back to pending, or to jq.dead_jobs when that was its last
-- attempt (a job that kills its worker every time must not loop forever), or
-- to history as cancelled when its cancellation had been requested.
create or replace function jq._reap_expired(p_queue text, p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_ids uuid[];
    v_last uuid[];
    v_cancelled uuid[];
begin
    select array_agg(id),
           array_agg(id) filter (where not cancel_requested and attempts >= max_attempts),
           array_agg(id) filter (where cancel_requested)
      into v_ids, v_last, v_cancelled
      from (select id, attempts, max_attempts, cancel_requested
              from jq.jobs
             where queue = p_queue and status = 'processing' and locked_until < p_now
             order by locked_until
             limit 1000
               for update skip locked) expired;
    if v_ids is null then
        return 0;
    end if;
    if v_last is not null then
        update jq.jobs
           set last_error = format('lease expired: worker "%s" did not finish attempt %s of %s by %s',
                                   locked_by, attempts, max_attempts, locked_until)
         where id = any(v_last);
        perform jq._retire(v_last, 'dead', null, p_now);
    end if;
    if v_cancelled is not null then
        perform jq._retire(v_cancelled, 'cancelled', null, p_now);
    end if;
    update jq.jobs
       set status = 'pending', locked_by = null, locked_until = null, deferred = run_at > p_now,
           last_error = format('lease expired: worker "%s" did not finish attempt %s by %s',
                               locked_by, attempts, locked_until)
     where id = any(v_ids) and status = 'processing';
    return cardinality(v_ids);
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
            delete from jq.queue_waiters w
             where w.ctid = any (array(select x.ctid from jq.queue_waiters x
                                        where x.queue = v_queue
                                          for update skip locked));
            if found then
                perform pg_notify(jq._channel(v_queue), '');
            end if;
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

create or replace trigger jobs_notify_ready
    after insert on jq.jobs
    referencing new table as new_jobs
    for each statement
    execute function jq._notify_ready();
