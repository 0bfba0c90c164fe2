-- Operator functions on many jobs: list them wherever they are (jq_jobs) and
-- act on a filter or an id list, bounded per call (retry now, cancel,
-- discard, delete dead, requeue dead).
--
-- One filter language for all of them, validated in one place
-- (jq._job_filter) and turned into a condition per source table in one
-- place (jq._job_filter_sql). The sources: jq.jobs (live: queued,
-- scheduled, failed_retrying, running; the words of jq_status), jq.dead_jobs
-- (dead) and jq.job_history (succeeded, cancelled). A filter that a source
-- cannot match (a payload on history, a finished time on live jobs, a
-- status of another source) leaves that source out of the query entirely.
--
-- The statements are built as text with the values quoted in (format %L)
-- and run with EXECUTE: each call is planned for its own filter, so the
-- history partitions outside a time window are pruned and a source left out
-- costs nothing. Listing walks the (created_at, id) index of each source
-- (migration 8), from the cursor on, never OFFSET.

-- The status words, in the vocabulary of jq_status.
create or replace function jq._job_status_words()
returns text[]
language sql
immutable
as $$
    select array['queued', 'scheduled', 'failed_retrying', 'running', 'dead', 'succeeded', 'cancelled']
$$;

-- Checks a filter and returns it normalised (status always an array,
-- id_prefix lower-case hex without dashes, times as timestamptz). Null is
-- the empty filter. Refuses (22023, naming the key) an unknown key, a value
-- of the wrong type or a malformed one. p_dead: the dead-letter actions,
-- which accept error (a substring of the dead job's error) too.
create or replace function jq._job_filter(p_filter jsonb, p_dead boolean default false)
returns jsonb
language plpgsql
stable
as $$
declare
    v_key   text;
    v_value jsonb;
    v_out   jsonb := '{}';
    v_words text[];
begin
    if p_filter is null then
        return '{}';
    elsif jsonb_typeof(p_filter) <> 'object' then
        raise exception 'filter must be a JSON object, not %', jsonb_typeof(p_filter) using errcode = '22023';
    end if;
    for v_key, v_value in select * from jsonb_each(p_filter) loop
        if v_key in ('queue', 'type', 'tenant', 'id_prefix', 'error', 'created_after', 'created_before',
                     'finished_after', 'finished_before')
           and (jsonb_typeof(v_value) <> 'string' or btrim(v_value #>> '{}') = '') then
            raise exception 'filter key % must be a non-empty string', v_key using errcode = '22023';
        end if;
        case
        when v_key in ('queue', 'type', 'tenant') or (v_key = 'error' and p_dead) then
            v_out := v_out || jsonb_build_object(v_key, v_value);
        when v_key = 'status' then
            if jsonb_typeof(v_value) = 'string' then
                v_value := jsonb_build_array(v_value);
            end if;
            if jsonb_typeof(v_value) <> 'array' or jsonb_array_length(v_value) = 0
               or exists (select 1 from jsonb_array_elements(v_value) e where jsonb_typeof(e) <> 'string') then
                raise exception 'filter key status must be a status word or a non-empty array of them'
                    using errcode = '22023', hint = 'Statuses: ' || array_to_string(jq._job_status_words(), ', ');
            end if;
            v_words := array(select jsonb_array_elements_text(v_value));
            if not v_words <@ jq._job_status_words() then
                raise exception 'filter key status: % is not a job status',
                    (select string_agg(quote_literal(w), ', ') from unnest(v_words) w
                      where w <> all(jq._job_status_words()))
                    using errcode = '22023', hint = 'Statuses: ' || array_to_string(jq._job_status_words(), ', ');
            end if;
            v_out := v_out || jsonb_build_object('status', to_jsonb(v_words));
        when v_key = 'payload' then
            if jsonb_typeof(v_value) <> 'object' then
                raise exception 'filter key payload must be a JSON object (matched with @>)' using errcode = '22023';
            end if;
            v_out := v_out || jsonb_build_object('payload', v_value);
        when v_key in ('created_after', 'created_before', 'finished_after', 'finished_before') then
            begin
                v_out := v_out || jsonb_build_object(v_key, (v_value #>> '{}')::timestamptz);
            exception when invalid_datetime_format or datetime_field_overflow then
                raise exception 'filter key % is not a timestamp: %', v_key, v_value #>> '{}'
                    using errcode = '22023', hint = 'Pass ISO 8601 text, e.g. 2026-01-15T08:00:00Z.';
            end;
        when v_key = 'id_prefix' then
            if replace(v_value #>> '{}', '-', '') !~* '^[0-9a-f]{1,32}$' then
                raise exception 'filter key id_prefix must be the leading hex digits of a job id, not %',
                    v_value #>> '{}' using errcode = '22023';
            end if;
            v_out := v_out || jsonb_build_object('id_prefix', lower(replace(v_value #>> '{}', '-', '')));
        else
            raise exception 'unknown filter key %', v_key
                using errcode = '22023',
                      hint = 'Keys: queue, type, status, tenant, payload, created_after, created_before, '
                             || 'finished_after, finished_before, id_prefix'
                             || case when p_dead then ', error' else '' end || '.';
        end case;
    end loop;
    return v_out;
end
$$;

-- The condition "id starts with the hex digits p_prefix" as a range of the
-- uuid order (the primary key serves it): [prefix 000..., next prefix 000...).
create or replace function jq._id_prefix_sql(p_prefix text)
returns text
language plpgsql
immutable
as $$
declare
    v_head text := rtrim(p_prefix, 'f');  -- the digits up to the last one that can be raised
    v_cond text := format('x.id >= %L::uuid', rpad(p_prefix, 32, '0'));
begin
    if v_head <> '' then
        v_head := left(v_head, -1)
                  || substr('123456789abcdef', strpos('0123456789abcde', right(v_head, 1)), 1);
        v_cond := v_cond || format(' and x.id < %L::uuid', rpad(v_head, 32, '0'));
    end if;
    return v_cond;
end
$$;

-- The WHERE condition of a normalised filter (jq._job_filter) on one source,
-- over alias x: p_source 'live' (jq.jobs), 'dead' (jq.dead_jobs) or
-- 'history' (jq.job_history). Null when no row of that source can match.
create or replace function jq._job_filter_sql(p_filter jsonb, p_source text, p_now timestamptz)
returns text
language plpgsql
stable
as $$
declare
    v_conds    text[] := array['true'];
    v_words    text[] := array(select jsonb_array_elements_text(p_filter -> 'status'));
    v_finished text := case p_source when 'dead' then 'x.failed_at' when 'history' then 'x.finished_at' end;
    v_live     text[];
begin
    if p_filter ? 'queue' then v_conds := v_conds || format('x.queue = %L', p_filter ->> 'queue'); end if;
    if p_filter ? 'type' then v_conds := v_conds || format('x.type = %L', p_filter ->> 'type'); end if;
    if p_filter ? 'tenant' then v_conds := v_conds || format('x.tenant = %L', p_filter ->> 'tenant'); end if;
    if p_filter ? 'id_prefix' then v_conds := v_conds || jq._id_prefix_sql(p_filter ->> 'id_prefix'); end if;
    if p_filter ? 'created_after' then
        v_conds := v_conds || format('x.created_at >= %L::timestamptz', p_filter ->> 'created_after');
        -- A job finishes after it was created: lets history skip older days.
        if p_source = 'history' then
            v_conds := v_conds || format('x.finished_at >= %L::timestamptz', p_filter ->> 'created_after');
        end if;
    end if;
    if p_filter ? 'created_before' then
        v_conds := v_conds || format('x.created_at < %L::timestamptz', p_filter ->> 'created_before');
    end if;
    if p_filter ?| array['finished_after', 'finished_before'] and v_finished is null then
        return null;  -- live jobs have not finished
    end if;
    if p_filter ? 'finished_after' then
        v_conds := v_conds || format('%s >= %L::timestamptz', v_finished, p_filter ->> 'finished_after');
    end if;
    if p_filter ? 'finished_before' then
        v_conds := v_conds || format('%s < %L::timestamptz', v_finished, p_filter ->> 'finished_before');
    end if;
    if p_filter ? 'payload' then
        if p_source = 'history' then
            return null;  -- history keeps no payload
        end if;
        v_conds := v_conds || format('x.payload @> %L::jsonb', p_filter ->> 'payload');
    end if;
    if p_filter ? 'error' then
        if p_source <> 'dead' then
            return null;
        end if;
        v_conds := v_conds || format('strpos(x.last_error, %L) > 0', p_filter ->> 'error');
    end if;
    if p_filter ? 'status' then
        if p_source = 'dead' and 'dead' <> all(v_words) then
            return null;
        elsif p_source = 'history' then
            v_words := array(select w from unnest(v_words) w where w in ('succeeded', 'cancelled'));
            if cardinality(v_words) = 0 then
                return null;
            end if;
            v_conds := v_conds || format('x.status = any(%L::text[])', v_words);
        elsif p_source = 'live' then
            v_live := array(
                select case w
                       when 'running' then $c$x.status = 'processing'$c$
                       when 'failed_retrying' then $c$(x.status = 'pending' and x.attempts > 0)$c$
                       when 'scheduled' then format($c$(x.status = 'pending' and x.attempts = 0 and x.run_at > %L::timestamptz)$c$, p_now)
                       when 'queued' then format($c$(x.status = 'pending' and x.attempts = 0 and x.run_at <= %L::timestamptz)$c$, p_now)
                       end
                  from unnest(v_words) w
                 where w in ('queued', 'scheduled', 'failed_retrying', 'running'));
            if cardinality(v_live) = 0 then
                return null;
            end if;
            v_conds := v_conds || ('(' || array_to_string(v_live, ' or ') || ')');
        end if;
    end if;
    return array_to_string(v_conds, ' and ');
end
$$;

-- A row's place in the listing order as opaque text: microseconds since the
-- epoch (exact, unlike a float) and the id's hex digits.
create or replace function jq._job_cursor(p_created_at timestamptz, p_id uuid)
returns text
language sql
immutable
as $$
    select (extract(epoch from p_created_at) * 1000000)::bigint::text || '.' || replace(p_id::text, '-', '')
$$;

-- The keyset condition after (or, newest first, before) a cursor of
-- jq._job_cursor, over alias x; 'true' for no cursor. 22023 for a cursor
-- this function did not make.
create or replace function jq._job_cursor_sql(p_cursor text, p_oldest_first boolean)
returns text
language plpgsql
immutable
as $$
declare
    v_micros bigint;
begin
    if p_cursor is null then
        return 'true';
    elsif p_cursor !~ '^-?[0-9]{1,18}\.[0-9a-f]{32}$' then
        raise exception 'cursor % is not one jq_jobs returned', quote_literal(left(p_cursor, 80))
            using errcode = '22023', hint = 'Pass the cursor column of the last row of the previous page.';
    end if;
    v_micros := split_part(p_cursor, '.', 1)::bigint;
    return format('(x.created_at, x.id) %s (%L::timestamptz, %L::uuid)',
                  case when p_oldest_first then '>' else '<' end,
                  timestamptz 'epoch' + (v_micros / 1000000) * interval '1 second'
                                      + (v_micros % 1000000) * interval '1 microsecond',
                  split_part(p_cursor, '.', 2)::uuid);
end
$$;

-- Jobs wherever they are (live, dead, history), filtered (jq._job_filter
-- keys), newest first by (created_at, id) unless p_oldest_first, p_limit
-- rows from the row after p_cursor (the cursor column of the previous
-- page's last row). Each source is read along its (created_at, id) index
-- from the cursor on, at most p_limit rows, and the pieces merged.
create or replace function jq.jq_jobs(
    p_filter       jsonb default '{}',
    p_limit        integer default 50,
    p_cursor       text default null,
    p_oldest_first boolean default false)
returns table (
    job_id       uuid,
    type         text,
    queue        text,
    status       text,
    priority     integer,
    tenant       text,
    attempts     smallint,
    max_attempts smallint,
    run_at       timestamptz,
    created_at   timestamptz,
    finished_at  timestamptz,
    last_error   text,
    cursor       text)
language plpgsql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_now    timestamptz := jq._now();
    v_filter jsonb := jq._job_filter(p_filter);
    v_after  text := jq._job_cursor_sql(p_cursor, coalesce(p_oldest_first, false));
    v_order  text := case when p_oldest_first then 'asc' else 'desc' end;
    v_parts  text[] := '{}';
    v_cond   text;
begin
    if p_limit is null or p_limit not between 1 and 1000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'List between 1 and 1000 jobs per page.';
    end if;
    v_cond := jq._job_filter_sql(v_filter, 'live', v_now);
    if v_cond is not null then
        v_parts := v_parts || format(
            $q$(select x.id, x.type, x.queue,
                       case when x.status = 'processing' then 'running'
                            when x.attempts > 0 then 'failed_retrying'
                            when x.run_at > %1$L::timestamptz then 'scheduled'
                            else 'queued' end,
                       x.priority::integer, x.tenant, x.attempts, x.max_attempts, x.run_at, x.created_at,
                       null::timestamptz, x.last_error
                  from jq.jobs x where %2$s and %3$s
                 order by x.created_at %4$s, x.id %4$s limit %5$s)$q$,
            v_now, v_cond, v_after, v_order, p_limit);
    end if;
    v_cond := jq._job_filter_sql(v_filter, 'dead', v_now);
    if v_cond is not null then
        v_parts := v_parts || format(
            $q$(select x.id, x.type, x.queue, 'dead'::text, x.priority::integer, x.tenant, x.attempts,
                       x.max_attempts, x.run_at, x.created_at, x.failed_at, x.last_error
                  from jq.dead_jobs x where %1$s and %2$s
                 order by x.created_at %3$s, x.id %3$s limit %4$s)$q$,
            v_cond, v_after, v_order, p_limit);
    end if;
    v_cond := jq._job_filter_sql(v_filter, 'history', v_now);
    if v_cond is not null then
        v_parts := v_parts || format(
            $q$(select x.id, x.type, x.queue, x.status, null::integer, x.tenant, x.attempts,
                       x.max_attempts, x.run_at, x.created_at, x.finished_at, x.last_error
                  from jq.job_history x where %1$s and %2$s
                 order by x.created_at %3$s, x.id %3$s limit %4$s)$q$,
            v_cond, v_after, v_order, p_limit);
    end if;
    if cardinality(v_parts) = 0 then
        return;
    end if;
    return query execute format(
        'select r.*, jq._job_cursor(r.created_at, r.id) from (%s) r(id, type, queue, status, priority, tenant,'
        ' attempts, max_attempts, run_at, created_at, finished_at, last_error)'
        ' order by r.created_at %s, r.id %s limit %s',
        array_to_string(v_parts, ' union all '), v_order, v_order, p_limit);
end
$$;
comment on function jq.jq_jobs(jsonb, integer, text, boolean) is
    'List jobs wherever they are (filter jsonb: queue, type, status word(s), tenant, payload @>, created_after/before, finished_after/before, id_prefix; limit 1..1000; cursor; oldest_first) -> (job_id, type, queue, status, priority, tenant, attempts, max_attempts, run_at, created_at, finished_at, last_error, cursor), newest first by keyset.';

-- Bulk actions. Each takes exactly one of a filter (jq._job_filter keys; '{}'
-- is every job) or an id list, and acts on at most p_limit (1..10000) jobs
-- per call, oldest created first: call again until it returns 0. Rows a
-- worker or another action holds are skipped, never waited for (FOR UPDATE
-- SKIP LOCKED). Each call is audited with its filter or ids and the count.

-- Checks the arguments every bulk action takes: exactly one of p_filter and
-- p_ids (22023 otherwise), p_limit 1..10000 (22023). Returns the normalised
-- filter, or null when ids were given.
create or replace function jq._bulk_filter(p_filter jsonb, p_ids uuid[], p_limit integer, p_dead boolean)
returns jsonb
language plpgsql
stable
as $$
begin
    if (p_filter is null) = (p_ids is null) then
        raise exception 'pass exactly one of filter and ids'
            using errcode = '22023', hint = 'An empty filter {} means every job (at most limit per call).';
    end if;
    if p_limit is null or p_limit not between 1 and 10000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'Act on between 1 and 10000 jobs per call; call again for more.';
    end if;
    if p_filter is null then
        return null;
    end if;
    return jq._job_filter(p_filter, p_dead);
end
$$;

-- The ids of at most p_limit jobs of one source table (p_source 'live':
-- jq.jobs, 'dead': jq.dead_jobs) that match the filter (or are among p_ids)
-- and the action's own condition p_state (over alias x), oldest created
-- first, locked FOR UPDATE SKIP LOCKED. Empty when none.
create or replace function jq._bulk_pick(
    p_source text, p_filter jsonb, p_ids uuid[], p_limit integer, p_state text, p_now timestamptz)
returns uuid[]
language plpgsql
as $$
declare
    v_cond text;
    v_ids  uuid[];
begin
    if p_filter is null then
        v_cond := 'x.id = any($1)';
    else
        v_cond := jq._job_filter_sql(p_filter, p_source, p_now);
        if v_cond is null then
            return '{}';
        end if;
    end if;
    execute format('select array(select x.id from %s x where %s and %s order by x.created_at, x.id limit %s'
                   ' for update skip locked)',
                   case p_source when 'live' then 'jq.jobs' else 'jq.dead_jobs' end, v_cond, p_state, p_limit)
       into v_ids
      using p_ids;
    return v_ids;
end
$$;

-- What an action acted on, for the audit log: the filter or the ids, and the limit.
create or replace function jq._bulk_target(p_filter jsonb, p_ids uuid[], p_limit integer)
returns jsonb
language sql
immutable
as $$
    select case when p_filter is not null then jsonb_build_object('filter', p_filter)
                else jsonb_build_object('ids', to_jsonb(p_ids)) end
           || jsonb_build_object('limit', p_limit)
$$;

-- Scheduled jobs and jobs waiting for a retry become ready now (run_at =
-- now, in the claim index); waiting workers of their queues are woken.
create or replace function jq.jq_jobs_retry(
    p_filter jsonb default null, p_ids uuid[] default null, p_limit integer default 1000)
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
    v_now    timestamptz := jq._now();
    v_filter jsonb := jq._bulk_filter(p_filter, p_ids, p_limit, false);
    v_ids    uuid[];
    v_queue  text;
begin
    v_ids := jq._bulk_pick('live', v_filter, p_ids, p_limit,
                           format($c$x.status = 'pending' and x.run_at > %L::timestamptz$c$, v_now), v_now);
    update jq.jobs j set run_at = v_now, deferred = false where j.id = any(v_ids);
    for v_queue in select distinct j.queue from jq.jobs j where j.id = any(v_ids) loop
        perform jq._wake_queue(v_queue);
    end loop;
    perform jq._audit('jobs_retry', jq._bulk_target(v_filter, p_ids, p_limit), cardinality(v_ids));
    return cardinality(v_ids);
end
$$;
comment on function jq.jq_jobs_retry(jsonb, uuid[], integer) is
    'Make scheduled and failed_retrying jobs ready now (filter or ids, limit 1..10000 per call) -> how many; FOR UPDATE SKIP LOCKED; repeat until 0. Audited.';

-- Pending jobs are cancelled (recorded in history, as jq_cancel does);
-- running ones are asked to cancel (cancel_requested, which the worker
-- learns from its heartbeat). Counts both.
create or replace function jq.jq_jobs_cancel(
    p_filter jsonb default null, p_ids uuid[] default null, p_limit integer default 1000)
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
    v_filter   jsonb := jq._bulk_filter(p_filter, p_ids, p_limit, false);
    v_ids      uuid[];
    v_pending  uuid[];
    v_running  integer;
    v_count    integer;
begin
    v_ids := jq._bulk_pick('live', v_filter, p_ids, p_limit,
                           $c$(x.status = 'pending' or not x.cancel_requested)$c$, v_now);
    v_pending := array(select j.id from jq.jobs j where j.id = any(v_ids) and j.status = 'pending');
    update jq.jobs j set cancel_requested = true
     where j.id = any(v_ids) and j.status = 'processing';
    get diagnostics v_running = row_count;
    v_count := jq._retire(v_pending, 'cancelled', null, v_now) + v_running;
    perform jq._audit('jobs_cancel', jq._bulk_target(v_filter, p_ids, p_limit), v_count);
    return v_count;
end
$$;
comment on function jq.jq_jobs_cancel(jsonb, uuid[], integer) is
    'Cancel jobs (filter or ids, limit 1..10000 per call) -> how many: pending ones go to history as cancelled, running ones get cancel_requested (as jq_cancel); repeat until 0. Audited.';

-- Pending jobs are moved to the dead letters with the error 'discarded by
-- operator' (failed_at now, attempts as they were). Running jobs are left alone.
create or replace function jq.jq_jobs_discard(
    p_filter jsonb default null, p_ids uuid[] default null, p_limit integer default 1000)
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
    v_now    timestamptz := jq._now();
    v_filter jsonb := jq._bulk_filter(p_filter, p_ids, p_limit, false);
    v_count  integer;
begin
    v_count := jq._retire(jq._bulk_pick('live', v_filter, p_ids, p_limit, $c$x.status = 'pending'$c$, v_now),
                          'dead', 'discarded by operator', v_now);
    perform jq._audit('jobs_discard', jq._bulk_target(v_filter, p_ids, p_limit), v_count);
    return v_count;
end
$$;
comment on function jq.jq_jobs_discard(jsonb, uuid[], integer) is
    'Move pending jobs to the dead letters as ''discarded by operator'' (filter or ids, limit 1..10000 per call) -> how many; repeat until 0. Audited.';

-- Dead jobs deleted for good.
create or replace function jq.jq_dead_delete(
    p_filter jsonb default null, p_ids uuid[] default null, p_limit integer default 1000)
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
    v_now    timestamptz := jq._now();
    v_filter jsonb := jq._bulk_filter(p_filter, p_ids, p_limit, true);
    v_ids    uuid[];
    v_count  integer;
begin
    -- Picked first: a volatile function in the WHERE clause would run once per row.
    v_ids := jq._bulk_pick('dead', v_filter, p_ids, p_limit, 'true', v_now);
    delete from jq.dead_jobs d where d.id = any(v_ids);
    get diagnostics v_count = row_count;
    perform jq._audit('dead_delete', jq._bulk_target(v_filter, p_ids, p_limit), v_count);
    return v_count;
end
$$;
comment on function jq.jq_dead_delete(jsonb, uuid[], integer) is
    'Delete dead jobs (filter: jq_jobs keys plus error, a substring of the error; or ids; limit 1..10000 per call) -> how many; repeat until 0. Audited.';

-- Dead jobs back to ready, attempts from zero.
create or replace function jq.jq_dead_requeue(
    p_filter jsonb default null, p_ids uuid[] default null, p_limit integer default 1000)
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
    v_now    timestamptz := jq._now();
    v_filter jsonb := jq._bulk_filter(p_filter, p_ids, p_limit, true);
    v_count  integer;
begin
    v_count := jq._requeue_dead_jobs(jq._bulk_pick('dead', v_filter, p_ids, p_limit, 'true', v_now), v_now);
    perform jq._audit('dead_requeue', jq._bulk_target(v_filter, p_ids, p_limit), v_count);
    return v_count;
end
$$;
comment on function jq.jq_dead_requeue(jsonb, uuid[], integer) is
    'Requeue dead jobs ready now with fresh attempts (filter: jq_jobs keys plus error, a substring of the error; or ids; limit 1..10000 per call) -> how many; repeat until 0. Audited.';
