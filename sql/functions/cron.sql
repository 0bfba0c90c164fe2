-- Cron slots: the instants a cron fires at in a named time zone, computed in
-- SQL, so that every caller (jq_schedules_fire_due, run by jq_tick; previews
-- through jq_cron_slots) sees the same slots from the server's time zone data.
--
-- A slot is a local wall-clock minute the cron matches (the masks of
-- jq._cron_check; when day-of-month and day-of-week are both restricted
-- either may match, when one is * the other decides, as croniter reads them)
-- mapped onto the timeline by jq._cron_instant with jq's DST rule: a time in
-- a gap fires at the gap's end, a time that happens twice at its first
-- occurrence. That mapping never goes backwards, so the slots after an
-- instant are the matches after its wall-clock time, mapped, with equal
-- instants merged.
--
-- A search walks months, then days within an allowed month, then hours and
-- minutes within an allowed day: a few dozen steps a call, never one step per
-- minute. tests/test_cron_slots.py checks every function here against
-- croniter wrapped with the same DST rule.

-- The lowest bit of p_mask at or above p_from, or null: the first value a
-- cron field allows from p_from on.
create or replace function jq._cron_bit_up(p_mask bigint, p_from integer)
returns integer
language sql
immutable
as $$
    select case when p_from > 62 or p_mask >> p_from = 0 then null
                else p_from + 64 - length(rtrim((p_mask >> p_from)::bit(64)::text, '0')) end
$$;

-- The highest bit of p_mask at or below p_to, or null: the last value a cron
-- field allows up to p_to.
create or replace function jq._cron_bit_down(p_mask bigint, p_to integer)
returns integer
language sql
immutable
as $$
    select case when p_to < 0 or p_mask & ((1::bigint << (least(p_to, 62) + 1)) - 1) = 0 then null
                else 64 - position('1' in (p_mask & ((1::bigint << (least(p_to, 62) + 1)) - 1))::bit(64)::text) end
$$;

-- Whether the cron's day fields allow a day (p_dom its day of the month,
-- p_dow its day of the week, Sunday 0): both when either field is *, else
-- either of them.
create or replace function jq._cron_day_allowed(p_days bigint, p_weekdays bigint, p_dom integer, p_dow integer)
returns boolean
language sql
immutable
as $$
    select case when p_days = 4294967294 or p_weekdays = 127
                then (p_days >> p_dom) & 1 = 1 and (p_weekdays >> p_dow) & 1 = 1
                else (p_days >> p_dom) & 1 = 1 or (p_weekdays >> p_dow) & 1 = 1 end
$$;

-- The first local minute strictly after p_after that the cron's masks match.
create or replace function jq._cron_next_local(
    p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_after timestamp)
returns timestamp
language plpgsql
immutable
as $$
declare
    v_at     timestamp := date_trunc('minute', p_after) + interval '1 minute';
    v_day    date := v_at::date;
    v_hour   integer := extract(hour from v_at);
    v_minute integer := extract(minute from v_at);
    v_next   date;
    v_last   integer;
    v_dom    integer;
    v_dow    integer;
    v_h      integer;
    v_m      integer;
begin
    -- Each turn moves to the next allowed month, to the next allowed day or
    -- returns; a cron jq._cron_check accepts fires within eight years (29
    -- February), about a hundred turns.
    for v_turn in 1 .. 2000 loop
        v_next := (date_trunc('month', v_day::timestamp) + interval '1 month')::date;
        if (p_months >> extract(month from v_day)::integer) & 1 = 0 then
            v_day := v_next;
            v_hour := 0;
            v_minute := 0;
            continue;
        end if;
        v_last := extract(day from v_next - 1)::integer;
        v_dom := extract(day from v_day)::integer;
        v_dow := extract(dow from v_day)::integer;
        while v_dom <= v_last and not jq._cron_day_allowed(p_days, p_weekdays, v_dom, v_dow) loop
            v_dom := v_dom + 1;
            v_dow := (v_dow + 1) % 7;
            v_hour := 0;
            v_minute := 0;
        end loop;
        if v_dom > v_last then
            v_day := v_next;
            v_hour := 0;
            v_minute := 0;
            continue;
        end if;
        v_day := v_next - (v_last - v_dom + 1);
        v_h := jq._cron_bit_up(p_hours, v_hour);
        v_m := null;
        if v_h = v_hour then
            v_m := jq._cron_bit_up(p_minutes, v_minute);
            if v_m is null then
                v_h := jq._cron_bit_up(p_hours, v_hour + 1);
            end if;
        end if;
        if v_h is null then
            v_day := v_day + 1;
            v_hour := 0;
            v_minute := 0;
            continue;
        end if;
        return v_day + make_interval(hours => v_h, mins => coalesce(v_m, jq._cron_bit_up(p_minutes, 0)));
    end loop;
    raise exception 'cron never matches after %', p_after using errcode = '22023';
end
$$;

-- The last local minute at or before p_at that the cron's masks match.
create or replace function jq._cron_prev_local(
    p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_at timestamp)
returns timestamp
language plpgsql
immutable
as $$
declare
    v_at     timestamp := date_trunc('minute', p_at);
    v_day    date := v_at::date;
    v_hour   integer := extract(hour from v_at);
    v_minute integer := extract(minute from v_at);
    v_first  date;
    v_dom    integer;
    v_dow    integer;
    v_h      integer;
    v_m      integer;
begin
    -- As jq._cron_next_local, backwards.
    for v_turn in 1 .. 2000 loop
        v_first := date_trunc('month', v_day::timestamp)::date;
        if (p_months >> extract(month from v_day)::integer) & 1 = 0 then
            v_day := v_first - 1;
            v_hour := 23;
            v_minute := 59;
            continue;
        end if;
        v_dom := extract(day from v_day)::integer;
        v_dow := extract(dow from v_day)::integer;
        while v_dom >= 1 and not jq._cron_day_allowed(p_days, p_weekdays, v_dom, v_dow) loop
            v_dom := v_dom - 1;
            v_dow := (v_dow + 6) % 7;
            v_hour := 23;
            v_minute := 59;
        end loop;
        if v_dom < 1 then
            v_day := v_first - 1;
            v_hour := 23;
            v_minute := 59;
            continue;
        end if;
        v_day := v_first + (v_dom - 1);
        v_h := jq._cron_bit_down(p_hours, v_hour);
        v_m := null;
        if v_h = v_hour then
            v_m := jq._cron_bit_down(p_minutes, v_minute);
            if v_m is null then
                v_h := jq._cron_bit_down(p_hours, v_hour - 1);
            end if;
        end if;
        if v_h is null then
            v_day := v_day - 1;
            v_hour := 23;
            v_minute := 59;
            continue;
        end if;
        return v_day + make_interval(hours => v_h, mins => coalesce(v_m, jq._cron_bit_down(p_minutes, 59)));
    end loop;
    raise exception 'cron never matches before %', p_at using errcode = '22023';
end
$$;

-- The instant a local wall-clock time fires at in p_zone, by jq's DST rule:
-- a time that happens twice at its first occurrence, a time in a gap at the
-- first second whose wall clock is past it (the change itself). PostgreSQL
-- alone reads the first at its second occurrence and the second in the
-- offset before the gap.
create or replace function jq._cron_instant(p_local timestamp, p_zone text)
returns timestamptz
language plpgsql
immutable
as $$
declare
    v_read  timestamptz := p_local at time zone p_zone;
    v_at    timestamptz := v_read;
    v_try   timestamptz;
    v_back  interval;
    v_lo    bigint;
    v_hi    bigint;
    v_mid   bigint;
begin
    if (v_read at time zone p_zone) = p_local then
        -- It exists. An earlier occurrence is in the offset of a moment
        -- before a fall-back change: try the offsets of 3 and 25 hours earlier
        -- (the largest change is 2 hours today, and a day for the historic
        -- date-line moves).
        foreach v_back in array array[interval '3 hours', interval '25 hours'] loop
            v_try := (p_local - (((v_read - v_back) at time zone p_zone) - ((v_read - v_back) at time zone 'UTC')))
                     at time zone 'UTC';
            if v_try < v_at and (v_try at time zone p_zone) = p_local then
                v_at := v_try;
            end if;
        end loop;
        return v_at;
    end if;
    -- In a gap: v_read is past the change, p_local read in the offset after
    -- it is before the change; the change is the first second in between
    -- whose wall clock is past p_local.
    v_hi := extract(epoch from v_read)::bigint;
    v_lo := extract(epoch from (p_local - ((v_read at time zone p_zone) - (v_read at time zone 'UTC')))
                               at time zone 'UTC')::bigint;
    while v_hi - v_lo > 1 loop
        v_mid := v_lo + (v_hi - v_lo) / 2;
        if (to_timestamp(v_mid) at time zone p_zone) > p_local then
            v_hi := v_mid;
        else
            v_lo := v_mid;
        end if;
    end loop;
    return to_timestamp(v_hi);
end
$$;

-- The first slot strictly after p_after of a cron given as jq._cron_check's
-- masks, in p_zone.
create or replace function jq._cron_slot_after(
    p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint,
    p_zone text, p_after timestamptz)
returns timestamptz
language plpgsql
immutable
as $$
declare
    v_local timestamp := p_after at time zone p_zone;
    v_slot  timestamptz;
begin
    -- Matches up to p_after's wall clock map at or before p_after; so do the
    -- next ones while p_after is in the second pass of a repeated hour (they
    -- fire at their first occurrence), which takes a turn each.
    for v_turn in 1 .. 100000 loop
        v_local := jq._cron_next_local(p_minutes, p_hours, p_days, p_months, p_weekdays, v_local);
        v_slot := jq._cron_instant(v_local, p_zone);
        if v_slot > p_after then
            return v_slot;
        end if;
    end loop;
    raise exception 'no slot found after %', p_after using errcode = '22023';
end
$$;

-- The last slot at or before p_at of a cron given as jq._cron_check's masks,
-- in p_zone.
create or replace function jq._cron_slot_at_or_before(
    p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint,
    p_zone text, p_at timestamptz)
returns timestamptz
language plpgsql
immutable
as $$
declare
    v_local timestamp := p_at at time zone p_zone;
    v_back  interval;
    v_slot  timestamptz;
begin
    -- When p_at is in the second pass of a repeated hour, wall-clock times
    -- after its own fire before it (at their first occurrence): start from
    -- p_at's wall clock in the offsets of 3 and 25 hours earlier as well.
    foreach v_back in array array[interval '3 hours', interval '25 hours'] loop
        v_local := greatest(v_local, (p_at at time zone 'UTC')
                                     + (((p_at - v_back) at time zone p_zone) - ((p_at - v_back) at time zone 'UTC')));
    end loop;
    v_local := jq._cron_prev_local(p_minutes, p_hours, p_days, p_months, p_weekdays, v_local);
    for v_turn in 1 .. 100000 loop
        v_slot := jq._cron_instant(v_local, p_zone);
        if v_slot <= p_at then
            return v_slot;
        end if;
        v_local := jq._cron_prev_local(p_minutes, p_hours, p_days, p_months, p_weekdays, v_local - interval '1 minute');
    end loop;
    raise exception 'no slot found before %', p_at using errcode = '22023';
end
$$;

-- The first slot of a cron strictly after p_after, in the IANA time zone
-- p_timezone. Raises as jq._cron_check for a bad cron; the zone is not
-- checked here (jq._check_timezone).
create or replace function jq._cron_next(p_cron text, p_timezone text, p_after timestamptz)
returns timestamptz
language sql
immutable
as $$
    select jq._cron_slot_after(c.minutes, c.hours, c.days, c.months, c.weekdays, p_timezone, p_after)
      from jq._cron_check(p_cron) c
$$;

-- The last slot of a cron at or before p_at, in the IANA time zone p_timezone.
create or replace function jq._cron_latest(p_cron text, p_timezone text, p_at timestamptz)
returns timestamptz
language sql
immutable
as $$
    select jq._cron_slot_at_or_before(c.minutes, c.hours, c.days, c.months, c.weekdays, p_timezone, p_at)
      from jq._cron_check(p_cron) c
$$;

-- The next p_count slots of a cron in a time zone strictly after p_after
-- (null: jq's clock), for previews: pyjq.schedule_put's first next_run_at,
-- the console's next runs. Checks the cron and the time zone as
-- jq_schedule_put does (22023 naming what is wrong).
create or replace function jq.jq_cron_slots(
    p_cron     text,
    p_timezone text,
    p_after    timestamptz default null,
    p_count    integer default 1)
returns table (slot timestamptz)
language plpgsql
volatile  -- jq._check_timezone remembers the names it found
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_cron record;
    v_at   timestamptz := coalesce(p_after, jq._now());
begin
    select * into v_cron from jq._cron_check(p_cron) c;
    perform jq._check_timezone(p_timezone);
    if not isfinite(v_at) then
        raise exception 'after % is not a finite time', v_at
            using errcode = '22023', hint = 'Pass a time, or null for now.';
    end if;
    if p_count is null or p_count not between 1 and 1000 then
        raise exception 'count % is out of range', coalesce(p_count::text, 'null')
            using errcode = '22023', hint = 'Ask for between 1 and 1000 slots.';
    end if;
    for v_n in 1 .. p_count loop
        v_at := jq._cron_slot_after(v_cron.minutes, v_cron.hours, v_cron.days, v_cron.months, v_cron.weekdays,
                                    p_timezone, v_at);
        slot := v_at;
        return next;
    end loop;
end
$$;
comment on function jq.jq_cron_slots(text, text, timestamptz, integer) is
    'The next count slots (default 1) of a cron in an IANA time zone after a time (null: now) -> slot, as jq_schedules_fire_due fires them (a time in a DST gap at the gap''s end, a repeated time once).';
