-- Schedules: recurring jobs from a cron expression in a named IANA timezone.
--
-- Admins write schedules (jq_schedule_put, _delete, _pause, _resume; listed
-- by jq_schedules). jq_schedules_fire_due fires them, called by jq_tick and
-- by pyjq's workers, any number at once; one call does, in one transaction:
--
--   jq_schedules_due(limit)      claims due schedules FOR UPDATE SKIP LOCKED
--                                and returns them with jq's clock
--   jq._schedule_due_slots       the slots to fire and the next slot, once
--                                per distinct (cron, timezone, missed, due
--                                time), computed in SQL (functions/cron.sql)
--   jq_schedules_fire(...)       advances next_run_at (only where it still is
--                                what the call read) and enqueues one job per
--                                slot, set-based
--
-- so a crash before commit changes nothing and the next call fires the same
-- slots again, with the same run_at. 0.5.0's workers run the same claim and
-- fire around slots computed in Python; both kinds fire each slot once. Each
-- slot's job carries the idempotency key 'schedule:<name>:<slot in UTC, ISO
-- 8601>' (names are at most 128 characters, so the key stays under its 255
-- limit) and run_at = slot + a deterministic offset in [0, jitter_seconds)
-- derived from (name, slot).
--
-- The slots follow jq's DST rule (a time in a gap fires at the gap's end, a
-- repeated time at its first occurrence; functions/cron.sql). SQL checks the
-- cron syntax itself: five fields of numbers, names, *, ranges, lists and
-- steps, or @hourly/@daily/...

-- One cron field as a bit mask (bit v set: value v allowed); raises 22023
-- naming the cron and the field. p_names maps names to values starting at
-- p_min (jan = 1, sun = 0). p_open_max is where * and a/step end (6 for
-- day-of-week, whose explicit values may also say 7 for Sunday). Plain
-- arithmetic, no queries: jq_schedule_put runs this for every schedule.
create or replace function jq._cron_field(
    p_cron text, p_field text, p_label text, p_min integer, p_max integer,
    p_names text[] default null, p_open_max integer default null)
returns bigint
language plpgsql
immutable
as $$
declare
    v_item   text;
    v_parts  text[];
    v_token  text;
    v_value  integer;
    v_lo     integer;
    v_hi     integer;
    v_step   integer;
    v_bits   bigint := 0;
    v_open   integer := coalesce(p_open_max, p_max);
    v_hint   text := 'Five fields: minute (0-59) hour (0-23) day-of-month (1-31) month (1-12 or jan-dec) '
                     'day-of-week (0-7 or sun-sat, 0 and 7 are Sunday); each *, a value, a range a-b, '
                     'a list a,b and an optional /step. E.g. "0 8 * * *" is 08:00 every day.';
begin
    if p_field = '*' then
        return ((1::bigint << (v_open - p_min + 1)) - 1) << p_min;
    end if;
    foreach v_item in array string_to_array(lower(p_field), ',') loop
        v_parts := regexp_match(v_item, '^(\*|([0-9]+|[a-z]+)(-([0-9]+|[a-z]+))?)(/([0-9]+))?$');
        if v_parts is null then
            raise exception 'cron % is invalid: % field % is not *, a value, a range or a step',
                quote_literal(p_cron), p_label, quote_literal(v_item)
                using errcode = '22023', hint = v_hint;
        end if;
        v_lo := null;
        v_hi := null;
        foreach v_token in array array[v_parts[2], v_parts[4]] loop
            continue when v_token is null;
            if v_token ~ '^[0-9]+$' then
                if char_length(v_token) > 4 or v_token::integer not between p_min and p_max then
                    raise exception 'cron % is invalid: % % is out of range %-%',
                        quote_literal(p_cron), p_label, v_token, p_min, p_max
                        using errcode = '22023', hint = v_hint;
                end if;
                v_value := v_token::integer;
            elsif array_position(p_names, v_token) is not null then
                v_value := array_position(p_names, v_token) - 1 + p_min;
            else
                raise exception 'cron % is invalid: % % is not a number%', quote_literal(p_cron), p_label,
                    quote_literal(v_token),
                    case when p_names is null then '' else ' or a name (' || array_to_string(p_names, ', ') || ')' end
                    using errcode = '22023', hint = v_hint;
            end if;
            if v_lo is null then
                v_lo := v_value;
            else
                v_hi := v_value;
            end if;
        end loop;
        if v_parts[1] = '*' then
            v_lo := p_min;
            v_hi := v_open;
        else
            v_hi := coalesce(v_hi, case when v_parts[6] is not null then v_open else v_lo end);
        end if;
        if v_lo > v_hi then
            raise exception 'cron % is invalid: % range %-% runs backwards', quote_literal(p_cron), p_label,
                v_lo, v_hi using errcode = '22023', hint = 'Write a wrapping range as two, e.g. 22-23,0-2.';
        end if;
        if v_parts[6] is null then
            v_bits := v_bits | (((1::bigint << (v_hi - v_lo + 1)) - 1) << v_lo);
        else
            if char_length(v_parts[6]) > 4 or v_parts[6]::integer not between 1 and v_open - p_min + 1 then
                raise exception 'cron % is invalid: % step % is out of range 1-%', quote_literal(p_cron), p_label,
                    v_parts[6], v_open - p_min + 1 using errcode = '22023', hint = v_hint;
            end if;
            v_step := v_parts[6]::integer;
            while v_lo <= v_hi loop
                v_bits := v_bits | (1::bigint << v_lo);
                v_lo := v_lo + v_step;
            end loop;
        end if;
    end loop;
    return v_bits;
end
$$;

-- A cron expression checked: its five fields as bit masks (bit v: value v;
-- weekdays 0-6, Sunday 0). Raises 22023 naming the cron when it is
-- malformed or can never fire (e.g. 31 February); 22004 when null, 22001
-- when longer than 255 characters. The same grammar as tests/cron_reference.py.
create or replace function jq._cron_check(
    p_cron       text,
    out minutes  bigint,
    out hours    bigint,
    out days     bigint,
    out months   bigint,
    out weekdays bigint)
language plpgsql
immutable
as $$
declare
    v_fields text[];
    v_expr   text;
    v_last   integer;
begin
    -- Not jq._check_text: a blank cron is reported as a cron of 0 fields.
    perform jq._check_not_null(p_cron, 'cron');
    if char_length(p_cron) > 255 then
        raise exception 'cron is % characters long; the limit is 255', char_length(p_cron) using errcode = '22001';
    end if;
    v_expr := case lower(btrim(p_cron))
                  when '@yearly' then '0 0 1 1 *'
                  when '@annually' then '0 0 1 1 *'
                  when '@monthly' then '0 0 1 * *'
                  when '@weekly' then '0 0 * * 0'
                  when '@daily' then '0 0 * * *'
                  when '@midnight' then '0 0 * * *'
                  when '@hourly' then '0 * * * *'
                  else btrim(p_cron) end;
    v_fields := regexp_split_to_array(v_expr, '\s+');
    if v_expr = '' or cardinality(v_fields) <> 5 then
        raise exception 'cron % has % fields; jq takes 5: minute hour day-of-month month day-of-week',
            quote_literal(p_cron), case when v_expr = '' then 0 else cardinality(v_fields) end
            using errcode = '22023',
                  hint = 'E.g. "0 8 * * *" is 08:00 every day, "*/15 * * * 1-5" every 15 minutes on weekdays; '
                         'or one of @hourly, @daily, @weekly, @monthly, @yearly.';
    end if;
    minutes := jq._cron_field(p_cron, v_fields[1], 'minute', 0, 59);
    hours := jq._cron_field(p_cron, v_fields[2], 'hour', 0, 23);
    days := jq._cron_field(p_cron, v_fields[3], 'day-of-month', 1, 31);
    months := jq._cron_field(p_cron, v_fields[4], 'month', 1, 12,
                             '{jan,feb,mar,apr,may,jun,jul,aug,sep,oct,nov,dec}');
    weekdays := jq._cron_field(p_cron, v_fields[5], 'day-of-week', 0, 7, '{sun,mon,tue,wed,thu,fri,sat}', 6);
    weekdays := (weekdays | (weekdays >> 7)) & 127;  -- 7 is Sunday too
    -- With every weekday allowed, only the day of the month decides (as in
    -- croniter and cron): a day no listed month has never comes.
    if weekdays = 127 then
        v_last := case when months & 5546 <> 0 then 31     -- jan mar may jul aug oct dec
                       when months & 2640 <> 0 then 30     -- apr jun sep nov
                       else 29 end;                        -- feb only
        if days & ((1::bigint << (v_last + 1)) - 1) = 0 then
            raise exception 'cron % never fires: none of its months has such a day of the month',
                quote_literal(p_cron) using errcode = '22023';
        end if;
    end if;
end
$$;

-- A cron expression's five fields as sorted arrays of values (for reading
-- and tests; jq_schedule_put uses _cron_check).
create or replace function jq._cron_parse(
    p_cron       text,
    out minutes  integer[],
    out hours    integer[],
    out days     integer[],
    out months   integer[],
    out weekdays integer[])
language sql
immutable
as $$
    select array(select v from generate_series(0, 59) v where c.minutes & (1::bigint << v) <> 0),
           array(select v from generate_series(0, 23) v where c.hours & (1::bigint << v) <> 0),
           array(select v from generate_series(1, 31) v where c.days & (1::bigint << v) <> 0),
           array(select v from generate_series(1, 12) v where c.months & (1::bigint << v) <> 0),
           array(select v from generate_series(0, 6) v where c.weekdays & (1::bigint << v) <> 0)
      from jq._cron_check(p_cron) c
$$;

-- A time zone name as pg_timezone_names knows it (case-sensitive, like
-- IANA and Python's zoneinfo); fixed offsets and abbreviations are not time
-- zones. Names found once are remembered in jq.timezone_names.
create or replace function jq._check_timezone(p_timezone text)
returns void
language plpgsql
volatile
as $$
begin
    perform jq._check_not_null(p_timezone, 'timezone');
    if exists (select 1 from jq.timezone_names t where t.name = p_timezone) then
        return;
    end if;
    if char_length(p_timezone) > 64 or p_timezone in ('localtime', 'posixrules')
       or not exists (select 1 from pg_timezone_names z where z.name = p_timezone) then
        raise exception 'timezone % is not a known IANA time zone name', quote_literal(p_timezone)
            using errcode = '22023',
                  hint = 'Use a name from pg_timezone_names, e.g. Europe/Berlin, America/New_York, Asia/Kolkata, UTC.';
    end if;
    insert into jq.timezone_names (name) values (p_timezone) on conflict do nothing;
end
$$;

-- A schedule name argument (every jq_schedule_* function): 1..128 characters.
create or replace function jq._check_schedule_name(p_name text)
returns void
language plpgsql
immutable
as $$
begin
    perform jq._check_text(p_name, 'name', 128);
end
$$;

-- The idempotency key of a schedule's job for one slot:
--   schedule:daily-digest:user-42:2026-03-08T13:00:00Z
create or replace function jq._schedule_key(p_name text, p_slot timestamptz)
returns text
language sql
stable
as $$
    select 'schedule:' || p_name || ':' || to_char(p_slot at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
$$;

-- The jitter of a schedule's job for one slot: a deterministic offset in
-- [0, jitter_seconds), in milliseconds, from the first 48 bits of
-- md5(name || '@' || the slot's Unix time in whole seconds). Uniform, so
-- schedules sharing a cron spread evenly; the same for a re-tick after a
-- crash. In Python: int(md5(f"{name}@{int(slot.timestamp())}".encode())
-- .hexdigest()[:12], 16) % (jitter_seconds * 1000) milliseconds.
create or replace function jq._schedule_offset(p_name text, p_slot timestamptz, p_jitter_seconds integer)
returns interval
language sql
stable
as $$
    select case when coalesce(p_jitter_seconds, 0) <= 0 then interval '0'
                else (('x' || substr(md5(p_name || '@' || floor(extract(epoch from p_slot))::bigint::text), 1, 12))
                          ::bit(48)::bigint % (p_jitter_seconds::bigint * 1000)) * interval '1 millisecond' end
$$;

-- Creates or replaces a schedule. Returns (name, created, next_run_at);
-- created is false when an existing schedule was updated.
--
-- next_run_at: pyjq passes the first slot after now (jq_cron_slots) as
-- p_next_run_at. Called without it (from SQL, another language) it stays
-- null and the next jq_schedules_fire_due computes it from the put's time, so the
-- first slot after the put still fires. An update that keeps cron and
-- timezone keeps the pending next_run_at (a due slot is not skipped); one
-- that changes either starts over from p_next_run_at. A paused schedule
-- stays paused.
create or replace function jq.jq_schedule_put(
    p_name           text,
    p_cron           text,
    p_timezone       text,
    p_type           text,
    p_payload        jsonb default '{}',
    p_queue          text default 'default',
    p_priority       integer default 0,
    p_jitter_seconds integer default 0,
    p_max_attempts   integer default null,
    p_missed         text default 'latest',
    p_next_run_at    timestamptz default null)
returns table (name text, created boolean, next_run_at timestamptz)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
#variable_conflict use_column
declare
    v_now  timestamptz := jq._now();
    v_old  jq.schedules%rowtype;
    v_next timestamptz;
begin
    perform jq._check_schedule_name(p_name);
    perform jq._cron_check(p_cron);
    perform jq._check_timezone(p_timezone);
    perform jq._check_job(p_type, p_payload, p_queue, p_priority, p_max_attempts, null, null);
    perform jq._check_not_null(p_jitter_seconds, 'jitter_seconds', 'Pass 0 for no jitter.');
    if p_jitter_seconds not between 0 and 86400 then
        raise exception 'jitter_seconds % is out of range', p_jitter_seconds
            using errcode = '22023', hint = 'jitter_seconds must be between 0 and 86400 (one day).';
    end if;
    perform jq._check_not_null(p_missed, 'missed');
    if p_missed not in ('latest', 'all', 'none') then
        raise exception 'missed % is not latest, all or none', quote_literal(p_missed)
            using errcode = '22023',
                  hint = 'What to fire for slots no scheduler fired in time: latest (the most recent one), all, none.';
    end if;

    loop
        select * into v_old from jq.schedules s where s.name = p_name for update;
        if found then
            v_next := case when v_old.cron = p_cron and v_old.timezone = p_timezone and v_old.next_run_at is not null
                           then v_old.next_run_at else p_next_run_at end;
            update jq.schedules s
               set cron = p_cron, timezone = p_timezone, type = p_type, payload = coalesce(p_payload, '{}'),
                   queue = p_queue, priority = p_priority, jitter_seconds = p_jitter_seconds,
                   max_attempts = p_max_attempts, missed = p_missed, next_run_at = v_next, updated_at = v_now
             where s.name = p_name;
            perform jq._audit('schedule_put', jsonb_build_object('name', p_name, 'cron', p_cron, 'timezone', p_timezone, 'type', p_type, 'queue', p_queue), 1);
            return query select p_name, false, v_next;
            return;
        end if;
        insert into jq.schedules (name, cron, timezone, type, payload, queue, priority, jitter_seconds,
                                  max_attempts, missed, next_run_at, created_at, updated_at)
        values (p_name, p_cron, p_timezone, p_type, coalesce(p_payload, '{}'), p_queue, p_priority, p_jitter_seconds,
                p_max_attempts, p_missed, p_next_run_at, v_now, v_now)
        on conflict do nothing;
        if found then
            perform jq._audit('schedule_put', jsonb_build_object('name', p_name, 'cron', p_cron, 'timezone', p_timezone, 'type', p_type, 'queue', p_queue), 1);
            return query select p_name, true, p_next_run_at;
            return;
        end if;
        -- Another session created it just now: update that one.
    end loop;
end
$$;
comment on function jq.jq_schedule_put(text, text, text, text, jsonb, text, integer, integer, integer, text, timestamptz) is
    'Create or update a schedule (name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed latest|all|none, next_run_at) -> (name, created, next_run_at).';

-- Deletes a schedule; jobs it already enqueued stay. False if there was none.
create or replace function jq.jq_schedule_delete(p_name text)
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
begin
    perform jq._check_schedule_name(p_name);
    delete from jq.schedules s where s.name = p_name;
    return jq._audited_found('schedule_delete', jsonb_build_object('name', p_name), found);
end
$$;
comment on function jq.jq_schedule_delete(text) is
    'Delete a schedule (name) -> true, or false if there was none. Jobs already enqueued stay.';

-- Pauses a schedule: no slot fires until it is resumed. False if none.
create or replace function jq.jq_schedule_pause(p_name text)
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
begin
    perform jq._check_schedule_name(p_name);
    update jq.schedules s
       set enabled = false,
           updated_at = case when s.enabled then jq._now() else s.updated_at end
     where s.name = p_name;
    return jq._audited_found('schedule_pause', jsonb_build_object('name', p_name), found);
end
$$;
comment on function jq.jq_schedule_pause(text) is
    'Pause a schedule (name) -> true, or false if there was none. Slots while paused never fire.';

-- Resumes a paused schedule from now on: the slots that passed while it was
-- paused are not fired, whatever its missed setting (next_run_at is
-- recomputed by the next jq_schedules_fire_due). False if none.
create or replace function jq.jq_schedule_resume(p_name text)
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
begin
    perform jq._check_schedule_name(p_name);
    update jq.schedules s
       set enabled = true,
           next_run_at = case when s.enabled then s.next_run_at end,
           updated_at = case when s.enabled then s.updated_at else jq._now() end
     where s.name = p_name;
    return jq._audited_found('schedule_resume', jsonb_build_object('name', p_name), found);
end
$$;
comment on function jq.jq_schedule_resume(text) is
    'Resume a paused schedule (name) from now on -> true, or false if there was none. Slots missed while paused do not fire.';

-- Every schedule, or the one named, by name.
create or replace function jq.jq_schedules(p_name text default null)
returns table (
    name           text,
    cron           text,
    timezone       text,
    type           text,
    payload        jsonb,
    queue          text,
    priority       smallint,
    jitter_seconds integer,
    max_attempts   smallint,
    missed         text,
    paused         boolean,
    next_run_at    timestamptz,
    last_slot_at   timestamptz,
    created_at     timestamptz,
    updated_at     timestamptz)
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select s.name, s.cron, s.timezone, s.type, s.payload, s.queue, s.priority, s.jitter_seconds, s.max_attempts,
           s.missed, not s.enabled, s.next_run_at, s.last_slot_at, s.created_at, s.updated_at
      from jq.schedules s
     where p_name is null or s.name = p_name
     order by s.name
$$;
comment on function jq.jq_schedules(text) is
    'Schedules (name: one, null: all) -> (name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed, paused, next_run_at, last_slot_at, created_at, updated_at).';

-- The scheduler's claim: up to p_limit enabled schedules whose next_run_at
-- has come, or is still null (put from SQL, or resumed: computed from
-- updated_at), locked FOR UPDATE SKIP LOCKED until the caller's transaction
-- ends, so schedulers running at once share the work. as_of is jq's clock,
-- the "now" the caller computes slots against. Call jq_schedules_fire in
-- the same transaction. jq_schedules_fire_due does both.
create or replace function jq.jq_schedules_due(p_limit integer default 1000)
returns table (
    name        text,
    cron        text,
    timezone    text,
    missed      text,
    next_run_at timestamptz,
    updated_at  timestamptz,
    as_of       timestamptz)
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
    v_now timestamptz := jq._now();
begin
    if p_limit is null or p_limit not between 1 and 100000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'Claim between 1 and 100000 schedules at a time.';
    end if;
    return query
    select d.name, d.cron, d.timezone, d.missed, d.next_run_at, d.updated_at, v_now
      from (select * from (select s.name, s.cron, s.timezone, s.missed, s.next_run_at, s.updated_at
                             from jq.schedules s
                            where s.enabled and s.next_run_at is null
                            limit p_limit
                              for update skip locked) fresh
            union all
            select * from (select s.name, s.cron, s.timezone, s.missed, s.next_run_at, s.updated_at
                             from jq.schedules s
                            where s.enabled and s.next_run_at <= v_now
                            order by s.next_run_at
                            limit p_limit
                              for update skip locked) due
            limit p_limit) d;
end
$$;
comment on function jq.jq_schedules_due(integer) is
    'Scheduler: claim up to limit due schedules (next_run_at <= now, or null) FOR UPDATE SKIP LOCKED -> (name, cron, timezone, missed, next_run_at, updated_at, as_of). Fire them with jq_schedules_fire in the same transaction.';

-- Fires slots and advances schedules, in one statement. One element per
-- (schedule, slot), in four arrays of equal length:
--   p_names        the schedule
--   p_due_at       its next_run_at as jq_schedules_due returned it (null
--                  when it was null); a schedule whose next_run_at is no
--                  longer this (another tick fired it, a put changed it),
--                  or that was paused or deleted, is left alone
--   p_slots        a slot to fire (<= now, >= p_due_at), or null to only
--                  advance next_run_at
--   p_next_run_at  its new next_run_at (later than every slot it fires)
-- A schedule with several slots (missed = all) repeats its name, due_at
-- and next_run_at. Each slot enqueues one job into the schedule's queue with
-- run_at = slot + jq._schedule_offset(name, slot, jitter_seconds) and the
-- idempotency key jq._schedule_key(name, slot): a slot fired before (within
-- the idempotency window) is not enqueued again. Returns (schedules
-- advanced, jobs enqueued).
create or replace function jq.jq_schedules_fire(
    p_names       text[],
    p_due_at      timestamptz[],
    p_slots       timestamptz[],
    p_next_run_at timestamptz[])
returns table (schedules integer, jobs integer)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
-- Planned for the arrays at hand every call: a generic plan guesses 10
-- elements per array and joins 5,000 jobs to 5,000 keys in a nested loop.
set plan_cache_mode = force_custom_plan
as $$
declare
    v_now     timestamptz := jq._now();
    v_default integer := (select s.default_max_attempts from jq.settings s);
    v_bad     record;
    v_advanced     integer;
    v_enqueued     integer;
    v_ids          uuid[];
    v_holders      uuid[];
    v_queues       text[];
    v_types        text[];
    v_payloads     jsonb[];
    v_priorities   smallint[];
    v_max_attempts integer[];
    v_keys         text[];
    v_run_ats      timestamptz[];
begin
    if p_names is null or p_due_at is null or p_slots is null or p_next_run_at is null then
        raise exception 'names, due_at, slots and next_run_at must not be null' using errcode = '22004';
    elsif cardinality(p_names) <> cardinality(p_due_at) or cardinality(p_names) <> cardinality(p_slots)
          or cardinality(p_names) <> cardinality(p_next_run_at) then
        raise exception 'names, due_at, slots and next_run_at must have the same length (% % % %)',
            cardinality(p_names), cardinality(p_due_at), cardinality(p_slots), cardinality(p_next_run_at)
            using errcode = '22023';
    elsif cardinality(p_names) > 100000 then
        raise exception 'fire holds % elements; the limit is 100000 per call', cardinality(p_names)
            using errcode = '22023', hint = 'Split the batch.';
    end if;

    select i.ord, i.name, i.due_at, i.slot, i.next_run_at into v_bad
      from unnest(p_names, p_due_at, p_slots, p_next_run_at) with ordinality as i(name, due_at, slot, next_run_at, ord)
     where i.name is null or i.next_run_at is null
        or i.slot > v_now or i.slot < i.due_at or i.slot >= i.next_run_at
     order by i.ord
     limit 1;
    if found then
        if v_bad.name is null or v_bad.next_run_at is null then
            raise exception 'names[%] and next_run_at[%] must not be null', v_bad.ord, v_bad.ord
                using errcode = '22004';
        end if;
        raise exception 'slots[%] % of schedule % is not between its due_at % and now % and before its next_run_at %',
            v_bad.ord, v_bad.slot, quote_literal(v_bad.name), coalesce(v_bad.due_at::text, '(null)'), v_now,
            v_bad.next_run_at using errcode = '22023';
    end if;
    select i.name into v_bad
      from unnest(p_names, p_due_at, p_next_run_at) as i(name, due_at, next_run_at)
     group by i.name
    having min(coalesce(i.due_at, '-infinity')) <> max(coalesce(i.due_at, '-infinity'))
        or min(i.next_run_at) <> max(i.next_run_at)
     limit 1;
    if found then
        raise exception 'schedule % is given different due_at or next_run_at values', quote_literal(v_bad.name)
            using errcode = '22023', hint = 'Repeat the same due_at and next_run_at for every slot of a schedule.';
    end if;

    -- Advance the schedules still due as the tick read them, and list a job
    -- per slot of those.
    with input as (
        select i.name, i.due_at, i.slot, i.next_run_at
          from unnest(p_names, p_due_at, p_slots, p_next_run_at) as i(name, due_at, slot, next_run_at)
    ), per_schedule as (
        select i.name, min(i.due_at) as due_at, min(i.next_run_at) as next_run_at, max(i.slot) as last_slot
          from input i
         group by i.name
    ), advanced as (
        update jq.schedules s
           set next_run_at = p.next_run_at,
               last_slot_at = greatest(s.last_slot_at, p.last_slot)
          from per_schedule p
         where s.name = p.name and s.enabled and s.next_run_at is not distinct from p.due_at
        returning s.name, s.queue, s.type, s.payload, s.priority, s.max_attempts, s.jitter_seconds
    ), fired as (
        select gen_random_uuid() as id, a.queue, a.type, a.payload, a.priority,
               coalesce(a.max_attempts, v_default) as max_attempts,
               jq._schedule_key(a.name, i.slot) as idempotency_key,
               i.slot + jq._schedule_offset(a.name, i.slot, a.jitter_seconds) as run_at
          from advanced a
          join (select distinct i.name, i.slot from input i where i.slot is not null) i on i.name = a.name
    )
    select (select count(*)::integer from advanced),
           array_agg(f.id), array_agg(f.queue), array_agg(f.type), array_agg(f.payload), array_agg(f.priority),
           array_agg(f.max_attempts), array_agg(f.idempotency_key), array_agg(f.run_at)
      into v_advanced, v_ids, v_queues, v_types, v_payloads, v_priorities, v_max_attempts, v_keys, v_run_ats
      from fired f;

    -- A slot fired before (its key taken within the window) is not enqueued again.
    v_holders := jq._take_idempotency_keys(v_queues, v_keys, v_ids, v_now);
    insert into jq.jobs (id, queue, type, payload, priority, run_at, max_attempts, idempotency_key,
                         deferred, created_at)
    select f.id, f.queue, f.type, f.payload, f.priority, f.run_at, f.max_attempts, f.idempotency_key,
           f.run_at > v_now, v_now
      from unnest(v_ids, v_holders, v_queues, v_types, v_payloads, v_priorities, v_max_attempts, v_keys, v_run_ats)
           as f(id, holder, queue, type, payload, priority, max_attempts, idempotency_key, run_at)
     where f.id = f.holder;
    get diagnostics v_enqueued = row_count;
    return query select v_advanced, v_enqueued;
end
$$;
comment on function jq.jq_schedules_fire(text[], timestamptz[], timestamptz[], timestamptz[]) is
    'Scheduler: fire slots (names, due_at, slots, next_run_at; one element per schedule and slot) -> (schedules advanced, jobs enqueued). Advances only schedules whose next_run_at is still due_at; one job per slot, keyed schedule:<name>:<slot UTC>, run_at = slot + deterministic jitter.';

-- What one claim fires for the schedules sharing (cron, timezone, missed,
-- due time), and their next next_run_at: the slots after p_after (their
-- next_run_at less a microsecond, or the time of the put or resume when it
-- is null) up to p_now, under missed:
--   all     every one, at most p_max_slots (the rest on the next claims)
--   latest  the most recent one
--   none    the most recent one if it is at most p_grace old
-- next_run_at is the first slot not fired. A cron or time zone that cannot
-- be read (written behind the functions' back) fires nothing and is tried
-- again in 10 minutes; problem says why.
create or replace function jq._schedule_due_slots(
    p_cron        text,
    p_timezone    text,
    p_missed      text,
    p_after       timestamptz,
    p_now         timestamptz,
    p_max_slots   integer,
    p_grace       interval,
    out slots       timestamptz[],
    out next_run_at timestamptz,
    out problem     text)
language plpgsql
stable
as $$
declare
    v_cron record;
    v_slot timestamptz;
begin
    select * into v_cron from jq._cron_check(p_cron) c;
    if p_missed = 'all' then
        slots := '{}';
        v_slot := jq._cron_slot_after(v_cron.minutes, v_cron.hours, v_cron.days, v_cron.months, v_cron.weekdays,
                                      p_timezone, p_after);
        while v_slot <= p_now and cardinality(slots) < p_max_slots loop
            slots := slots || v_slot;
            v_slot := jq._cron_slot_after(v_cron.minutes, v_cron.hours, v_cron.days, v_cron.months, v_cron.weekdays,
                                          p_timezone, v_slot);
        end loop;
        next_run_at := v_slot;
        return;
    end if;
    v_slot := jq._cron_slot_at_or_before(v_cron.minutes, v_cron.hours, v_cron.days, v_cron.months, v_cron.weekdays,
                                         p_timezone, p_now);
    next_run_at := jq._cron_slot_after(v_cron.minutes, v_cron.hours, v_cron.days, v_cron.months, v_cron.weekdays,
                                       p_timezone, greatest(p_now, p_after));
    slots := case when v_slot > p_after and (p_missed = 'latest' or p_now - v_slot <= p_grace)
                  then array[v_slot] else '{}' end;
exception when others then
    slots := '{}';
    next_run_at := p_now + interval '10 minutes';
    problem := format('cannot compute the slots of cron %s in time zone %s (%s: %s); trying again at %s',
                      quote_literal(p_cron), quote_literal(p_timezone), sqlstate, sqlerrm, next_run_at);
end
$$;

-- Fires the due schedules, slots computed here: one call claims up to
-- p_limit due schedules with jq_schedules_due (FOR UPDATE SKIP LOCKED, so
-- callers running at once take different rows), computes each one's slots
-- under its missed setting (jq._schedule_due_slots, once per distinct cron,
-- timezone, missed and due time) and fires them with jq_schedules_fire
-- (same keys and jitter; next_run_at advances only where it still is what
-- the claim read, so 0.5.0 workers' Python schedulers may run beside it).
-- A missed = all backlog fires at most 1,000 slots per schedule and 50,000
-- in all per call. Returns the jobs enqueued. jq_tick calls it.
create or replace function jq.jq_schedules_fire_due(p_limit integer default 500)
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
    v_now      timestamptz := jq._now();
    v_grace    interval := (select s.schedule_missed_grace from jq.settings s);
    v_names    text[];
    v_due_at   timestamptz[];
    v_slots    timestamptz[];
    v_next     timestamptz[];
    v_problems text[];
    v_problem  text;
    v_jobs     integer;
begin
    -- jq_schedules_due refuses a limit outside 1..100000 (22023).
    with due as materialized (
        select d.name, d.cron, d.timezone, d.missed, d.next_run_at,
               coalesce(d.next_run_at - interval '1 microsecond', d.updated_at) as after
          from jq.jq_schedules_due(p_limit) d
    ), cap as (
        -- A missed = all backlog shares 50,000 slots among the schedules that have one.
        select greatest(1, least(1000, 50000 / greatest(1, count(*))))::integer as max_slots
          from due d
         where d.missed = 'all'
    ), planned as materialized (
        select g.names, g.due_at, p.slots, p.next_run_at, p.problem
          from (select d.cron, d.timezone, d.missed, d.next_run_at as due_at, d.after, array_agg(d.name) as names
                  from due d
                 group by d.cron, d.timezone, d.missed, d.next_run_at, d.after) g
         cross join cap
         cross join lateral jq._schedule_due_slots(g.cron, g.timezone, g.missed, g.after, v_now, cap.max_slots,
                                                   v_grace) p
    )
    select array_agg(n.name), array_agg(p.due_at), array_agg(s.slot), array_agg(p.next_run_at),
           (select array_agg(format('schedule %s%s: %s', quote_literal(x.names[1]),
                                    case when cardinality(x.names) > 1
                                         then format(' and %s more', cardinality(x.names) - 1) else '' end,
                                    x.problem))
              from planned x
             where x.problem is not null)
      into v_names, v_due_at, v_slots, v_next, v_problems
      from planned p
     cross join lateral unnest(p.names) n(name)
     cross join lateral unnest(case when cardinality(p.slots) = 0 then array[null::timestamptz] else p.slots end)
           s(slot);
    if v_names is null then
        return 0;
    end if;
    foreach v_problem in array coalesce(v_problems, '{}') loop
        raise warning '%', v_problem;
    end loop;
    select f.jobs into v_jobs from jq.jq_schedules_fire(v_names, v_due_at, v_slots, v_next) f;
    return v_jobs;
end
$$;
comment on function jq.jq_schedules_fire_due(integer) is
    'Fire due schedules (limit, default 500): claim them FOR UPDATE SKIP LOCKED, compute their slots under missed, enqueue one job per slot -> jobs enqueued. jq_tick calls it; any number of callers at once fire each slot once.';
