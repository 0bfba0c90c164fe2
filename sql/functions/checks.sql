-- Argument checks: the one home of each input rule. Every public jq_*
-- function checks its arguments with these before touching a table, and the
-- tables' CHECK constraints call jq._is_queue_name, so a rule is written once.
--
-- Installed right after bootstrap, before the migrations: the constraints of
-- the migrations need jq._is_queue_name to exist.
--
-- Each failure names the argument (p_prefix lets jq_enqueue_many say which
-- element, e.g. 'jobs[3].') and raises a standard SQLSTATE:
--   22004 a required value is null
--   22001 a value is too long
--   22023 anything else out of range (empty, malformed)

-- The queue-name rule, written only here: 1 to 64 letters, digits and
-- _ . : -. Called by the *_queue_format CHECK constraints of jq.jobs,
-- jq.dead_jobs, jq.schedules, jq.tenant_policies, jq.queue_settings, by
-- jq._check_queue and by jq_enqueue_many's one-pass batch check. Changing it
-- does not recheck stored rows: a migration that narrows it must.
create or replace function jq._is_queue_name(p_queue text)
returns boolean
language sql
immutable
parallel safe
as $$
    select p_queue ~ '^[A-Za-z0-9_.:-]{1,64}$'
$$;

-- The ladder as a test, for one-pass checks of many values (jq_enqueue_many):
-- not null, not blank, at most p_max characters.
create or replace function jq._is_filled_text(p_value text, p_max integer)
returns boolean
language sql
immutable
parallel safe
as $$
    select btrim(p_value) <> '' and char_length(p_value) <= p_max
$$;

-- Raises p_message with p_sqlstate, and p_hint when there is one (RAISE
-- refuses a null HINT). Used by the checks below.
create or replace function jq._raise_bad_argument(p_message text, p_sqlstate text, p_hint text default null)
returns void
language plpgsql
immutable
as $$
begin
    if p_hint is null then
        raise exception using message = p_message, errcode = p_sqlstate;
    end if;
    raise exception using message = p_message, errcode = p_sqlstate, hint = p_hint;
end
$$;

-- The null rung of the ladder, for arguments of any type (ids, arrays,
-- intervals, flags): raises 22004 '<name> must not be null'.
create or replace function jq._check_not_null(
    p_value anyelement, p_name text, p_hint text default null, p_prefix text default '')
returns void
language plpgsql
immutable
as $$
begin
    if p_value is null then
        perform jq._raise_bad_argument(p_prefix || p_name || ' must not be null', '22004', p_hint);
    end if;
end
$$;

-- The text ladder every text argument goes through: null (22004, unless
-- p_nullable), empty or blank (22023), longer than p_max characters (22001;
-- p_max null: no limit). p_hint is added to the null and empty errors.
create or replace function jq._check_text(
    p_value    text,
    p_name     text,
    p_max      integer,
    p_nullable boolean default false,
    p_hint     text default null,
    p_prefix   text default '')
returns void
language plpgsql
immutable
as $$
begin
    if p_value is null then
        if not p_nullable then
            perform jq._raise_bad_argument(p_prefix || p_name || ' must not be null', '22004', p_hint);
        end if;
    elsif btrim(p_value) = '' then
        perform jq._raise_bad_argument(p_prefix || p_name || ' must not be empty', '22023', p_hint);
    elsif char_length(p_value) > p_max then
        raise exception '% is % characters long; the limit is %', p_prefix || p_name, char_length(p_value), p_max
            using errcode = '22001';
    end if;
end
$$;

-- A queue argument: not null (22004), at most 64 characters (22001), a
-- queue name by jq._is_queue_name (22023). p_wildcard: '*' (every queue) is
-- accepted too, as the tenant-policy functions take it.
create or replace function jq._check_queue(
    p_queue text, p_prefix text default '', p_wildcard boolean default false)
returns void
language plpgsql
immutable
as $$
begin
    if p_queue is null then
        perform jq._raise_bad_argument(p_prefix || 'queue must not be null', '22004',
                                   case when p_wildcard then 'Pass ''*'' for every queue.' end);
    elsif p_wildcard and p_queue = '*' then
        return;
    elsif char_length(p_queue) > 64 then
        raise exception '%queue is % characters long; the limit is 64', p_prefix, char_length(p_queue)
            using errcode = '22001';
    elsif not jq._is_queue_name(p_queue) then
        raise exception '%queue % is not a valid queue name', p_prefix, quote_literal(p_queue)
            using errcode = '22023', hint = 'Queue names use letters, digits and _ . : - only.';
    end if;
end
$$;

-- A job's concurrency_key: null (no cap), or 1..255 characters, not blank.
-- Called by jq_enqueue and jq._explain_bad_job.
create or replace function jq._check_concurrency_key(p_key text, p_prefix text default '')
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_text(p_key, 'concurrency_key', 255, true, 'Pass null for no key.', p_prefix);
end
$$;

-- Argument checks shared by jq_enqueue, jq_enqueue_many (through
-- jq._explain_bad_job) and jq_schedule_put: one job's fields.
create or replace function jq._check_job(
    p_type text, p_payload jsonb, p_queue text, p_priority integer,
    p_max_attempts integer, p_idempotency_key text, p_tenant text,
    p_prefix text default '')
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_text(p_type, 'type', 128, p_prefix => p_prefix);
    if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
        raise exception '%payload must be a JSON object, not %', p_prefix, jsonb_typeof(p_payload)
            using errcode = '22023', hint = 'Wrap the value in an object, e.g. {"value": ...}.';
    end if;
    perform jq._check_queue(p_queue, p_prefix);
    perform jq._check_not_null(p_priority, 'priority', p_prefix => p_prefix);
    if p_priority not between -32768 and 32767 then
        raise exception '%priority % is out of range', p_prefix, p_priority
            using errcode = '22023', hint = 'Priority is a smallint: -32768 to 32767, higher runs first.';
    end if;
    if p_max_attempts is not null and p_max_attempts not between 1 and 1000 then
        raise exception '%max_attempts % is out of range', p_prefix, p_max_attempts
            using errcode = '22023', hint = 'max_attempts must be between 1 and 1000.';
    end if;
    perform jq._check_text(p_idempotency_key, 'idempotency_key', 255, true, 'Pass null for no key.', p_prefix);
    perform jq._check_text(p_tenant, 'tenant', 128, true, 'Pass null for no tenant.', p_prefix);
end
$$;

-- A worker name: every function that takes job ids from a worker (claim,
-- complete, fail, heartbeat, release, set_waiting) calls this.
create or replace function jq._check_worker(p_worker text)
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_text(p_worker, 'worker', 255, false,
                           'Use a name unique to the worker process, e.g. host:pid:random.');
end
$$;

-- A lease: 1 second to 7 days. Called by jq_claim and jq_heartbeat.
create or replace function jq._check_lease(p_lease interval)
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_not_null(p_lease, 'lease');
    if p_lease < interval '1 second' or p_lease > interval '7 days' then
        raise exception 'lease % is out of range', p_lease using errcode = '22023',
            hint = 'A lease lasts between 1 second and 7 days; heartbeat to extend it.';
    end if;
end
$$;
