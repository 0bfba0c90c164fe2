-- jq 0.6.0: the schema a fresh install leaves (pg_dump --schema-only of schema jq, PostgreSQL 15;
-- owners and the dated jq.job_history_pYYYYMMDD partitions left out). Read this instead of merging the
-- migrations in your head. Nothing runs this file: sql/install.sql installs jq.
-- `make test` fails when install.sql drifts from it (tests/test_install.py). Regenerate it with
--   JQ_WRITE_SCHEMA=1 make test-py PYTEST_ARGS="tests/test_install.py -k committed_schema"

--
-- Name: jq; Type: SCHEMA; Schema: -
--

CREATE SCHEMA jq;

--
-- Name: SCHEMA jq; Type: COMMENT; Schema: -
--

COMMENT ON SCHEMA jq IS 'jq: a background job queue in PostgreSQL. Public API: the jq.jq_* functions.';

--
-- Name: claim_group; Type: TYPE; Schema: jq
--

CREATE TYPE jq.claim_group AS (
	priority smallint,
	tkey text,
	first_run_at timestamp with time zone,
	open boolean,
	weight integer,
	room integer,
	pass double precision,
	eff double precision,
	got integer,
	quota integer
);

--
-- Name: claim_job; Type: TYPE; Schema: jq
--

CREATE TYPE jq.claim_job AS (
	ctid tid,
	type text,
	concurrency_key text,
	priority smallint,
	tkey text,
	id uuid,
	generation smallint
);

--
-- Name: _actor(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._actor() RETURNS text
    LANGUAGE sql STABLE
    AS $$
    select left(coalesce(nullif(btrim(current_setting('jq.actor', true)), ''), session_user), 255)
$$;

--
-- Name: _attempt_error(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._attempt_error(p_error text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    select case when char_length(p_error) <= 2000 then p_error
                else left(p_error, 1000) || E'\n... [cut] ...\n' || right(p_error, 985) end
$$;

--
-- Name: _attempt_log_append(jsonb, integer, timestamp with time zone, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._attempt_log_append(p_log jsonb, p_attempt integer, p_at timestamp with time zone, p_worker text, p_error text) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $_$
    select jsonb_path_query_array(
               coalesce(p_log, '[]'::jsonb)
               || jsonb_build_array(jsonb_build_object('attempt', p_attempt, 'at', p_at, 'worker', p_worker,
                                                       'error', jq._attempt_error(p_error))),
               '$[last - 9 to last]')
$_$;

--
-- Name: _audit(text, jsonb, bigint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._audit(p_action text, p_target jsonb, p_rows bigint) RETURNS void
    LANGUAGE sql
    AS $$
    insert into jq.audit_log (at, role, actor, action, target, rows)
    values (jq._now(),
            session_user,
            left(coalesce(nullif(btrim(current_setting('jq.actor', true)), ''), session_user), 255),
            p_action,
            coalesce(p_target, '{}'),
            greatest(coalesce(p_rows, 0), 0))
$$;

--
-- Name: FUNCTION _audit(p_action text, p_target jsonb, p_rows bigint); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq._audit(p_action text, p_target jsonb, p_rows bigint) IS 'Records one operator action in jq.audit_log: action, target (filter or ids), rows changed; actor from jq.actor or session_user.';

--
-- Name: _audited_found(text, jsonb, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._audited_found(p_action text, p_target jsonb, p_found boolean) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
begin
    perform jq._audit(p_action, p_target, case when p_found then 1 else 0 end);
    return p_found;
end
$$;

--
-- Name: _bounded_error(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._bounded_error(p_error text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    select case when char_length(p_error) <= s.max_error_length then p_error
                else left(p_error, s.max_error_length - char_length(m.marker)) || m.marker end
      from jq.settings s,
           lateral (select format(E'\n... [cut: %s characters in all]', char_length(p_error)) as marker) m
$$;

--
-- Name: _bulk_filter(jsonb, uuid[], integer, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._bulk_filter(p_filter jsonb, p_ids uuid[], p_limit integer, p_dead boolean) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $$
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

--
-- Name: _bulk_pick(text, jsonb, uuid[], integer, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._bulk_pick(p_source text, p_filter jsonb, p_ids uuid[], p_limit integer, p_state text, p_now timestamp with time zone) RETURNS uuid[]
    LANGUAGE plpgsql
    AS $_$
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
$_$;

--
-- Name: _bulk_target(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._bulk_target(p_filter jsonb, p_ids uuid[], p_limit integer) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $$
    select case when p_filter is not null then jsonb_build_object('filter', p_filter)
                else jsonb_build_object('ids', to_jsonb(p_ids)) end
           || jsonb_build_object('limit', p_limit)
$$;

--
-- Name: _channel(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._channel(p_queue text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    select 'jq_' || left(p_queue, 60)
$$;

--
-- Name: _check_batch_payloads(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_batch_payloads(p_jobs jsonb) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $$
declare
    v_index integer;
begin
    select t.ord - 1 into v_index
      from jsonb_array_elements(p_jobs) with ordinality as t(e, ord), jq.settings s
     where pg_column_size(t.e -> 'payload') > s.max_payload_bytes
        or jq._payload_too_deep(t.e -> 'payload', s.max_payload_depth)
     order by t.ord
     limit 1;
    if v_index is not null then
        perform jq._check_payload(p_jobs -> v_index -> 'payload', format('jobs[%s].payload', v_index));
    end if;
end
$$;

--
-- Name: _check_concurrency_key(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_concurrency_key(p_key text, p_prefix text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    perform jq._check_text(p_key, 'concurrency_key', 255, true, 'Pass null for no key.', p_prefix);
end
$$;

--
-- Name: _check_error_filter(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_error_filter(p_error text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    if p_error is not null and btrim(p_error) = '' then
        raise exception 'error filter is blank' using errcode = '22023',
            hint = 'Pass a fingerprint, a raw message or a part of one; null for every error.';
    end if;
end
$$;

--
-- Name: _check_job(text, jsonb, text, integer, integer, text, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_job(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_prefix text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $$
begin
    perform jq._check_text(p_type, 'type', 128, p_prefix => p_prefix);
    if p_payload is not null and jsonb_typeof(p_payload) <> 'object' then
        raise exception '%payload must be a JSON object, not %', p_prefix, jsonb_typeof(p_payload)
            using errcode = '22023', hint = 'Wrap the value in an object, e.g. {"value": ...}.';
    end if;
    perform jq._check_payload(p_payload, p_prefix || 'payload');
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

--
-- Name: _check_lease(interval); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_lease(p_lease interval) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    perform jq._check_not_null(p_lease, 'lease');
    if p_lease < interval '1 second' or p_lease > interval '7 days' then
        raise exception 'lease % is out of range', p_lease using errcode = '22023',
            hint = 'A lease lasts between 1 second and 7 days; heartbeat to extend it.';
    end if;
end
$$;

--
-- Name: _check_metadata(jsonb, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_metadata(p_metadata jsonb, p_prefix text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
declare
    v_key  text;
    v_type text;
begin
    if p_metadata is null or jq._is_metadata_ok(p_metadata) then
        return;
    elsif jsonb_typeof(p_metadata) <> 'object' then
        raise exception '%metadata must be a JSON object of strings, not %', p_prefix, jsonb_typeof(p_metadata)
            using errcode = '22023', hint = 'Pass e.g. {"traceparent": "00-...-01"}, or null for none.';
    elsif octet_length(p_metadata::text) > 8192 then
        raise exception '%metadata is % bytes; the limit is 8192 bytes', p_prefix, octet_length(p_metadata::text)
            using errcode = '54000',
                  hint = 'Metadata carries headers such as the trace context; put data in the payload.';
    end if;
    select m.key, jsonb_typeof(m.value) into v_key, v_type
      from jsonb_each(p_metadata) m where jsonb_typeof(m.value) <> 'string' order by m.key limit 1;
    raise exception '%metadata.% must be a string, not %', p_prefix, v_key, v_type
        using errcode = '22023', hint = 'Metadata values are strings, like message headers.';
end
$$;

--
-- Name: _check_not_null(anyelement, text, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_not_null(p_value anyelement, p_name text, p_hint text DEFAULT NULL::text, p_prefix text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    if p_value is null then
        perform jq._raise_bad_argument(p_prefix || p_name || ' must not be null', '22004', p_hint);
    end if;
end
$$;

--
-- Name: _check_payload(jsonb, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_payload(p_payload jsonb, p_what text DEFAULT 'payload'::text) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $$
declare
    v_bytes integer := pg_column_size(p_payload);
    v_limits record;
begin
    if p_payload is null then
        return;
    end if;
    select s.max_payload_bytes, s.max_payload_depth into v_limits from jq.settings s;
    if v_bytes > v_limits.max_payload_bytes then
        raise exception '% is % bytes; the limit is % bytes', p_what, v_bytes, v_limits.max_payload_bytes
            using errcode = '54000',
                  hint = 'Store large data elsewhere and pass a reference; an admin may raise jq.settings.max_payload_bytes.';
    end if;
    -- The size guard first, here too: the SQL function is planned afresh in
    -- every transaction that calls it, which a small payload need not pay.
    if v_bytes >= 4 * v_limits.max_payload_depth and jq._payload_too_deep(p_payload, v_limits.max_payload_depth) then
        raise exception '% nests deeper than % levels', p_what, v_limits.max_payload_depth
            using errcode = '54001',
                  hint = 'Flatten the payload; an admin may raise jq.settings.max_payload_depth.';
    end if;
end
$$;

--
-- Name: _check_queue(text, text, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_queue(p_queue text, p_prefix text DEFAULT ''::text, p_wildcard boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _check_results(uuid[], jsonb[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_results(p_job_ids uuid[], p_results jsonb[]) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $$
declare
    v_job   uuid;
    v_bytes integer;
    v_limit integer;
begin
    if p_results is null then
        return;
    end if;
    if cardinality(p_results) <> cardinality(p_job_ids) then
        perform jq._raise_bad_argument(
            format('results has %s elements and job_ids %s: results[i] is the result of job_ids[i]',
                   cardinality(p_results), cardinality(p_job_ids)),
            '22023', 'Pass one result per job id (null for none), or null for no results at all.');
    end if;
    select i.id, octet_length(i.result::text), s.max_result_bytes into v_job, v_bytes, v_limit
      from unnest(p_job_ids, p_results) with ordinality as i(id, result, ord), jq.settings s
     where i.result is not null and octet_length(i.result::text) > s.max_result_bytes
     order by i.ord
     limit 1;
    if v_job is not null then
        raise exception 'result of job % is % bytes; the limit is % bytes (jq.settings.max_result_bytes)',
                        v_job, v_bytes, v_limit
            using errcode = '54000',
                  hint = 'Store large results elsewhere and return a reference; an admin may raise jq.settings.max_result_bytes.';
    end if;
end
$$;

--
-- Name: _check_schedule_name(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_schedule_name(p_name text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    perform jq._check_text(p_name, 'name', 128);
end
$$;

--
-- Name: _check_text(text, text, integer, boolean, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_text(p_value text, p_name text, p_max integer, p_nullable boolean DEFAULT false, p_hint text DEFAULT NULL::text, p_prefix text DEFAULT ''::text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _check_timezone(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_timezone(p_timezone text) RETURNS void
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _check_worker(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_worker(p_worker text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    perform jq._check_text(p_worker, 'worker', 255, false,
                           'Use a name unique to the worker process, e.g. host:pid:random.');
end
$$;

--
-- Name: _check_worker_queues(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_worker_queues(p_queues jsonb) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _check_worker_types(text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._check_worker_types(p_types text[]) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _claim_charge(jq.claim_group[], jq.claim_group[], jq.claim_job[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_charge(p_groups jq.claim_group[], p_quotas jq.claim_group[], p_taken jq.claim_job[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        with y as (
            select y.priority, y.tkey, count(*)::integer as n from unnest(p_taken) y group by 1, 2
        )
        select row(g.priority, g.tkey, g.first_run_at,
                   g.open and not exists (select 1 from unnest(p_quotas) q
                                           where q.priority = g.priority and q.tkey = g.tkey
                                             and q.quota > coalesce((select y.n from y
                                                                      where y.priority = g.priority
                                                                        and y.tkey = g.tkey), 0)),
                   g.weight, g.room, g.pass, g.eff,
                   g.got + coalesce((select sum(y.n)::integer from y where y.tkey = g.tkey), 0),
                   null)::jq.claim_group
          from unnest(p_groups) with ordinality g
         order by g.ordinality);
end
$$;

--
-- Name: _claim_charge_lanes(text, timestamp with time zone, jq.claim_group[], jq.claim_job[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_charge_lanes(p_queue text, p_now timestamp with time zone, p_groups jq.claim_group[], p_jobs jq.claim_job[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
begin
    insert into jq.fair_lanes as l (queue, tenant, pass, last_share, served, updated_at)
    select p_queue, t.tkey, t.eff + t.got::double precision / t.weight,
           t.got::double precision / t.weight, t.got, p_now
      from (select distinct on (g.tkey) g.tkey, g.weight, g.pass, g.eff,
                   (select count(*)::integer from unnest(p_jobs) j where j.tkey = g.tkey) as got
              from unnest(p_groups) g
             order by g.tkey) t
     where t.got > 0 or t.pass is null or t.pass < t.eff
     order by t.tkey
    on conflict on constraint fair_lanes_pkey do update
       set pass = greatest(l.pass + excluded.last_share, excluded.pass),
           last_share = excluded.last_share,
           served = l.served + excluded.served,
           updated_at = excluded.updated_at;
end
$$;

--
-- Name: _claim_key_caps(jq.claim_job[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_key_caps(p_jobs jq.claim_job[]) RETURNS jq.claim_job[]
    LANGUAGE plpgsql
    AS $$
declare
    v_locked jq.claim_job[];  -- the (type, concurrency_key) pairs we hold the lock of
begin
    if not exists (select 1 from unnest(p_jobs) j where j.concurrency_key is not null) then
        return p_jobs;
    end if;
    v_locked := array(
        select row(null, k.type, k.concurrency_key, null, null, null, null)::jq.claim_job
          from (select distinct j.type, j.concurrency_key
                  from unnest(p_jobs) j
                 where j.concurrency_key is not null) k
         where pg_try_advisory_xact_lock(hashtext('jq.key:' || k.type), hashtext(k.concurrency_key)));
    return array(
        select row(x.ctid, x.type, x.concurrency_key, x.priority, x.tkey, x.id, x.generation)::jq.claim_job
          from (select j.ctid, j.id, j.generation, j.type, j.concurrency_key, j.priority, coalesce(j.tenant, '') as tkey,
                       row_number() over (partition by j.type, j.concurrency_key order by j.run_at) as krn
                  from jq.jobs j
                 where j.id = any (array(select y.id from unnest(p_jobs) y))
                   and j.generation = any (array(select distinct y.generation from unnest(p_jobs) y))) x
          left join unnest(v_locked) lk on lk.type = x.type and lk.concurrency_key = x.concurrency_key
         where x.concurrency_key is null
            or (lk.concurrency_key is not null and x.krn <= jq._key_room(x.type, x.concurrency_key)));
end
$$;

--
-- Name: _claim_promote_due(text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_promote_due(p_queue text, p_now timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    AS $$
declare
    v_ids  uuid[];
    v_low  smallint;
    v_high smallint;
begin
    select array_agg(x.id), min(x.generation), max(x.generation)
      into v_ids, v_low, v_high
      from (with recursive lv(p) as (
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
            select t.id, t.generation
              from lv
             cross join lateral (
                 select d.id, d.generation from jq.jobs d
                  where d.queue = p_queue and d.status = 'pending' and d.deferred
                    and d.priority = lv.p and d.run_at <= p_now
                  order by d.run_at
                  limit 10000
                    for update skip locked) t
             where lv.p is not null
             limit 10000) x;
    if v_ids is null then
        return;
    end if;
    update jq.jobs j
       set deferred = false
     where j.generation between v_low and v_high
       and j.id = any (v_ids);
end
$$;

--
-- Name: _claim_quotas(text, text[], timestamp with time zone, boolean, integer, jq.claim_group[], jq.claim_job[], text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_quotas(p_queue text, p_types text[], p_now timestamp with time zone, p_fair boolean, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
declare
    v_open integer;
begin
    select count(*) into v_open from unnest(p_groups) g where g.open and coalesce(g.room > g.got, true);
    if v_open = 0 then
        return '{}';
    elsif v_open = 1 then
        return array(
            select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                       least(p_left, coalesce(g.room - g.got, p_left)))::jq.claim_group
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true));
    elsif p_fair then
        return jq._claim_quotas_fair(p_left, p_groups);
    else
        return jq._claim_quotas_plain(p_queue, p_types, p_now, p_left, p_groups, p_jobs, p_skip_types);
    end if;
end
$$;

--
-- Name: _claim_quotas_fair(integer, jq.claim_group[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_quotas_fair(p_left integer, p_groups jq.claim_group[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        with g as (
            select g.*, g.eff + g.got::double precision / g.weight as cur,
                   coalesce(g.room - g.got, p_left) as left_room
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true)
        ), lvl as (
            select g.priority, sum(g.weight) as weights, max(g.cur) as top
              from g
             group by g.priority
        ), tags as (
            select g.priority, g.tkey, g.first_run_at, g.left_room, k,
                   g.cur + (k - 1)::double precision / g.weight as tag
              from g
              join lvl on lvl.priority = g.priority
             cross join lateral generate_series(1, least(p_left, g.left_room,
                 ceil(p_left::numeric * g.weight / lvl.weights)::integer
                 + ceil((lvl.top - g.cur) * g.weight)::integer + 1)) k
        ), ranked as (
            select x.*, row_number() over (partition by x.tkey order by x.priority desc, x.k) as trn
              from tags x
        ), top as (
            select x.priority, x.tkey
              from ranked x
             where x.trn <= x.left_room
             -- Rounded, so that 1/3 + 1/3 + 1/3 ties with 1.
             order by x.priority desc, round(x.tag * 1e9), x.first_run_at, x.tkey, x.k
             limit p_left
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                   q.n)::jq.claim_group
          from (select top.priority, top.tkey, count(*)::integer as n from top group by 1, 2) q
          join g on g.priority = q.priority and g.tkey = q.tkey);
end
$$;

--
-- Name: _claim_quotas_plain(text, text[], timestamp with time zone, integer, jq.claim_group[], jq.claim_job[], text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_quotas_plain(p_queue text, p_types text[], p_now timestamp with time zone, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        with g as (
            select g.*, coalesce(g.room - g.got, p_left) as left_room
              from unnest(p_groups) g
             where g.open and coalesce(g.room > g.got, true)
        ), c as (
            select g.priority, g.tkey, g.left_room, j.run_at
              from g
             cross join lateral (
                 select j.run_at
                   from jq.jobs j
                  where j.queue = p_queue and j.status = 'pending' and not j.deferred
                    and j.priority = g.priority and coalesce(j.tenant, '') = g.tkey
                    and j.run_at <= p_now
                    and (p_types is null or j.type = any(p_types))
                    and (p_skip_types is null or j.type <> all(p_skip_types))
                    and j.id <> all (array(select x.id from unnest(p_jobs) x))
                  order by j.run_at
                  limit least(p_left, g.left_room)) j
        ), top as (
            select c.priority, c.tkey
              from (select c.*, row_number() over (partition by c.tkey order by c.priority desc, c.run_at) as trn
                      from c) c
             where c.trn <= c.left_room
             order by c.priority desc, c.run_at, c.tkey
             limit p_left
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room, g.pass, g.eff, g.got,
                   q.n)::jq.claim_group
          from (select top.priority, top.tkey, count(*)::integer as n from top group by 1, 2) q
          join g on g.priority = q.priority and g.tkey = q.tkey);
end
$$;

--
-- Name: _claim_ready_groups(text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_ready_groups(p_queue text, p_now timestamp with time zone) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        with recursive g(priority, tkey, first_run_at) as (
            (select j.priority, coalesce(j.tenant, ''), j.run_at
               from jq.jobs j
              where j.queue = p_queue and j.status = 'pending' and not j.deferred
              order by j.priority desc, coalesce(j.tenant, ''), j.run_at
              limit 1)
            union all
            select n.priority, n.tkey, n.run_at
              from g
             cross join lateral (
                 (select j.priority, coalesce(j.tenant, '') as tkey, j.run_at
                    from jq.jobs j
                   where j.queue = p_queue and j.status = 'pending' and not j.deferred
                     and j.priority = g.priority and coalesce(j.tenant, '') > g.tkey
                   order by j.priority desc, coalesce(j.tenant, ''), j.run_at
                   limit 1)
                 union all
                 (select j.priority, coalesce(j.tenant, ''), j.run_at
                    from jq.jobs j
                   where j.queue = p_queue and j.status = 'pending' and not j.deferred and j.priority < g.priority
                   order by j.priority desc, coalesce(j.tenant, ''), j.run_at
                   limit 1)
                 limit 1) n
        )
        select row(g.priority, g.tkey, g.first_run_at, true, 1, null, null, 0, 0, null)::jq.claim_group
          from g
         where g.first_run_at <= p_now
         order by g.priority desc, g.tkey);
end
$$;

--
-- Name: _claim_settle_caps(text, jq.claim_group[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_settle_caps(p_queue text, p_groups jq.claim_group[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
declare
    v_groups jq.claim_group[];
begin
    if not exists (select 1 from jq.tenant_policies) then
        return p_groups;
    end if;
    -- room holds the cap for now (0 when another claimer holds the lock).
    -- Materialized: one lock attempt per tenant, however many groups it has.
    v_groups := array(
        with t as materialized (
            select t.tkey, coalesce(p.weight, 1) as weight,
                   case when p.max_running is null then null
                        when pg_try_advisory_xact_lock(hashtext('jq.tenant:' || p_queue), hashtext(t.tkey))
                        then p.max_running else 0 end as cap
              from (select distinct g.tkey from unnest(p_groups) g) t
             cross join lateral (
                 select (array_agg(x.weight order by x.tenant = '*', x.queue = '*')
                            filter (where x.weight is not null))[1] as weight,
                        (array_agg(x.max_running order by x.tenant = '*', x.queue = '*')
                            filter (where x.max_running is not null))[1] as max_running
                   from jq.tenant_policies x
                  where x.queue in (p_queue, '*') and x.tenant in (t.tkey, '*')) p
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open,
                   t.weight, t.cap, g.pass, g.eff, g.got, g.quota)::jq.claim_group
          from unnest(p_groups) with ordinality g
          join t on t.tkey = g.tkey
         order by g.ordinality);
    if not exists (select 1 from unnest(v_groups) g where g.room is not null) then
        return v_groups;
    end if;
    -- The count: at most the cap's worth of index entries per tenant. Two
    -- arms, because jobs without a tenant are not in jobs_running_tenant_idx.
    return array(
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight,
                   case when g.room is not null then greatest(g.room - case
                       when g.tkey = '' then (select count(*)::integer
                                                from (select 1 from jq.jobs r
                                                       where r.queue = p_queue and r.tenant is null
                                                         and r.status = 'processing'
                                                       limit g.room) x)
                       else (select count(*)::integer
                               from (select 1 from jq.jobs r
                                      where r.queue = p_queue and r.tenant = g.tkey
                                        and r.status = 'processing'
                                      limit g.room) x)
                       end, 0) end,
                   g.pass, g.eff, g.got, g.quota)::jq.claim_group
          from unnest(v_groups) with ordinality g
         order by g.ordinality);
end
$$;

--
-- Name: _claim_standing(text, jq.claim_group[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_standing(p_queue text, p_groups jq.claim_group[]) RETURNS jq.claim_group[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        with g as (
            select g.*, l.pass as lane_pass
              from unnest(p_groups) with ordinality g
              left join jq.fair_lanes l on l.queue = p_queue and l.tenant = g.tkey
        ), b as (
            select coalesce(min(g.lane_pass) filter (where g.lane_pass >= m.top - 10), 0) as base
              from g, (select max(g.lane_pass) as top from g) m
        )
        select row(g.priority, g.tkey, g.first_run_at, g.open, g.weight, g.room,
                   g.lane_pass, greatest(coalesce(g.lane_pass, b.base), b.base), g.got, g.quota)::jq.claim_group
          from g, b
         order by g.ordinality);
end
$$;

--
-- Name: _claim_suspect(text, text, interval, timestamp with time zone, text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_suspect(p_queue text, p_worker text, p_lease interval, p_now timestamp with time zone, p_types text[]) RETURNS TABLE(id uuid, queue text, type text, payload jsonb, priority smallint, attempts smallint, max_attempts smallint, tenant text, run_at timestamp with time zone, created_at timestamp with time zone, locked_until timestamp with time zone, idempotency_key text, last_error text, metadata jsonb)
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _claim_take(text, text[], timestamp with time zone, jq.claim_group[], jq.claim_job[], text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._claim_take(p_queue text, p_types text[], p_now timestamp with time zone, p_quotas jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) RETURNS jq.claim_job[]
    LANGUAGE plpgsql
    AS $$
begin
    return array(
        select row(p.ctid, p.type, p.concurrency_key, q.priority, q.tkey, p.id, p.generation)::jq.claim_job
          from unnest(p_quotas) q
         cross join lateral (
             select j.ctid, j.id, j.generation, j.type, j.concurrency_key
               from jq.jobs j
              where j.queue = p_queue and j.status = 'pending' and not j.deferred
                and j.priority = q.priority and coalesce(j.tenant, '') = q.tkey
                and j.run_at <= p_now
                and j.orphaned < 2  -- suspects run in isolation (jq._claim_suspect)
                and (p_types is null or j.type = any(p_types))
                and (p_skip_types is null or j.type <> all(p_skip_types))  -- paused types
                and (j.concurrency_key is null or jq._key_room(j.type, j.concurrency_key) > 0)
                and j.id <> all (array(select x.id from unnest(p_jobs) x))
              order by j.run_at
              limit q.quota
                for update of j skip locked) p);
end
$$;

--
-- Name: _cron_bit_down(bigint, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_bit_down(p_mask bigint, p_to integer) RETURNS integer
    LANGUAGE sql IMMUTABLE
    AS $$
    select case when p_to < 0 or p_mask & ((1::bigint << (least(p_to, 62) + 1)) - 1) = 0 then null
                else 64 - position('1' in (p_mask & ((1::bigint << (least(p_to, 62) + 1)) - 1))::bit(64)::text) end
$$;

--
-- Name: _cron_bit_up(bigint, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_bit_up(p_mask bigint, p_from integer) RETURNS integer
    LANGUAGE sql IMMUTABLE
    AS $$
    select case when p_from > 62 or p_mask >> p_from = 0 then null
                else p_from + 64 - length(rtrim((p_mask >> p_from)::bit(64)::text, '0')) end
$$;

--
-- Name: _cron_check(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_check(p_cron text, OUT minutes bigint, OUT hours bigint, OUT days bigint, OUT months bigint, OUT weekdays bigint) RETURNS record
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _cron_day_allowed(bigint, bigint, integer, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_day_allowed(p_days bigint, p_weekdays bigint, p_dom integer, p_dow integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
    select case when p_days = 4294967294 or p_weekdays = 127
                then (p_days >> p_dom) & 1 = 1 and (p_weekdays >> p_dow) & 1 = 1
                else (p_days >> p_dom) & 1 = 1 or (p_weekdays >> p_dow) & 1 = 1 end
$$;

--
-- Name: _cron_field(text, text, text, integer, integer, text[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_field(p_cron text, p_field text, p_label text, p_min integer, p_max integer, p_names text[] DEFAULT NULL::text[], p_open_max integer DEFAULT NULL::integer) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $_$
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
$_$;

--
-- Name: _cron_instant(timestamp without time zone, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_instant(p_local timestamp without time zone, p_zone text) RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _cron_latest(text, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_latest(p_cron text, p_timezone text, p_at timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE sql IMMUTABLE
    AS $$
    select jq._cron_slot_at_or_before(c.minutes, c.hours, c.days, c.months, c.weekdays, p_timezone, p_at)
      from jq._cron_check(p_cron) c
$$;

--
-- Name: _cron_next(text, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_next(p_cron text, p_timezone text, p_after timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE sql IMMUTABLE
    AS $$
    select jq._cron_slot_after(c.minutes, c.hours, c.days, c.months, c.weekdays, p_timezone, p_after)
      from jq._cron_check(p_cron) c
$$;

--
-- Name: _cron_next_local(bigint, bigint, bigint, bigint, bigint, timestamp without time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_next_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_after timestamp without time zone) RETURNS timestamp without time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _cron_parse(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_parse(p_cron text, OUT minutes integer[], OUT hours integer[], OUT days integer[], OUT months integer[], OUT weekdays integer[]) RETURNS record
    LANGUAGE sql IMMUTABLE
    AS $$
    select array(select v from generate_series(0, 59) v where c.minutes & (1::bigint << v) <> 0),
           array(select v from generate_series(0, 23) v where c.hours & (1::bigint << v) <> 0),
           array(select v from generate_series(1, 31) v where c.days & (1::bigint << v) <> 0),
           array(select v from generate_series(1, 12) v where c.months & (1::bigint << v) <> 0),
           array(select v from generate_series(0, 6) v where c.weekdays & (1::bigint << v) <> 0)
      from jq._cron_check(p_cron) c
$$;

--
-- Name: _cron_prev_local(bigint, bigint, bigint, bigint, bigint, timestamp without time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_prev_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_at timestamp without time zone) RETURNS timestamp without time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _cron_slot_after(bigint, bigint, bigint, bigint, bigint, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_slot_after(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_after timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _cron_slot_at_or_before(bigint, bigint, bigint, bigint, bigint, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._cron_slot_at_or_before(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_at timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _dead_groups_matching(timestamp with time zone, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._dead_groups_matching(p_since timestamp with time zone, p_type text, p_error text) RETURNS TABLE(type text, error text, count bigint, first_failed_at timestamp with time zone, last_failed_at timestamp with time zone, sample_error text)
    LANGUAGE sql STABLE
    AS $$
    select g.type, g.error, g.count, g.first_failed_at, g.last_failed_at, s.sample_error
      from (select d.type, d.error_fingerprint as error, count(*) as count,
                   min(d.failed_at) as first_failed_at, max(d.failed_at) as last_failed_at
              from jq.dead_jobs d
             where (p_since is null or d.failed_at >= p_since)
               and (p_type is null or d.type = p_type)
             group by d.type, d.error_fingerprint) g
     cross join lateral (
        select d.last_error as sample_error
          from jq.dead_jobs d
         where d.type = g.type and d.error_fingerprint = g.error
           and (p_since is null or d.failed_at >= p_since)
         order by d.failed_at desc
         limit 1) s
     where p_error is null
        or g.error = p_error
        or g.error = jq.error_fingerprint(p_error)
        or strpos(lower(g.error), lower(p_error)) > 0
        or strpos(lower(split_part(s.sample_error, E'\n', 1)), lower(p_error)) > 0
$$;

--
-- Name: _drop_history_partitions(timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._drop_history_partitions(p_now timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $_$
declare
    v_cutoff  timestamptz := p_now - (select history_retention from jq.settings);
    v_name    text;
    v_dropped integer := 0;
begin
    for v_name in
        select c.relname
          from pg_inherits i
          join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'jq.job_history'::regclass
           and c.relname ~ '^job_history_p\d{8}$'
           and (to_date(substr(c.relname, 14), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' <= v_cutoff
         order by c.relname
    loop
        exit when not jq._try_lock('jq.job_history', 'access exclusive', (select s.tick_lock_wait from jq.settings s));
        execute format('drop table jq.%I', v_name);
        v_dropped := v_dropped + 1;
    end loop;
    delete from jq.job_history_default where finished_at < v_cutoff;
    return v_dropped;
end
$_$;

--
-- Name: _explain_bad_job(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._explain_bad_job(p_jobs jsonb) RETURNS void
    LANGUAGE plpgsql
    AS $$
declare
    v_elem  jsonb;
    v_index integer := 0;
    v_field text;
begin
    for v_elem in select e from jsonb_array_elements(p_jobs) e loop
        if jsonb_typeof(v_elem) <> 'object' then
            raise exception 'jobs[%] must be a JSON object, not %', v_index, jsonb_typeof(v_elem)
                using errcode = '22023';
        end if;
        select k into v_field from jsonb_object_keys(v_elem) k
         where k not in ('type', 'payload', 'queue', 'priority', 'run_at', 'max_attempts',
                         'idempotency_key', 'tenant', 'concurrency_key', 'metadata')
         limit 1;
        if v_field is not null then
            raise exception 'jobs[%] has an unknown key %', v_index, quote_literal(v_field)
                using errcode = '22023',
                      hint = 'Keys: type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata.';
        end if;
        foreach v_field in array array['type', 'queue', 'idempotency_key', 'tenant', 'concurrency_key', 'run_at'] loop
            if jsonb_typeof(v_elem -> v_field) not in ('string', 'null') then
                raise exception 'jobs[%].% must be a string', v_index, v_field using errcode = '22023';
            end if;
        end loop;
        foreach v_field in array array['priority', 'max_attempts'] loop
            if jsonb_typeof(v_elem -> v_field) not in ('number', 'null')
               or (v_elem ->> v_field)::numeric <> trunc((v_elem ->> v_field)::numeric)
               or abs((v_elem ->> v_field)::numeric) > 2147483647 then
                raise exception 'jobs[%].% must be an integer', v_index, v_field using errcode = '22023';
            end if;
        end loop;
        if jsonb_typeof(v_elem -> 'run_at') = 'string' then
            begin
                perform (v_elem ->> 'run_at')::timestamptz;
            exception when others then
                raise exception 'jobs[%].run_at % is not a timestamp', v_index, v_elem -> 'run_at'
                    using errcode = '22007',
                          hint = 'Use ISO 8601 with a UTC offset, e.g. 2026-11-01T00:05:00+05:30.';
            end;
            if not jq._is_run_at_in_range((v_elem ->> 'run_at')::timestamptz) then
                raise exception 'jobs[%].run_at % is out of range', v_index, v_elem -> 'run_at'
                    using errcode = '22023', hint = 'run_at is between 0001-01-02 and 9999-12-30 UTC, or null to run now.';
            end if;
        end if;
        perform jq._check_job(v_elem ->> 'type', nullif(v_elem -> 'payload', 'null'),
                              coalesce(v_elem ->> 'queue', 'default'),
                              coalesce((v_elem ->> 'priority')::integer, 0), (v_elem ->> 'max_attempts')::integer,
                              v_elem ->> 'idempotency_key', v_elem ->> 'tenant',
                              format('jobs[%s].', v_index));
        perform jq._check_concurrency_key(v_elem ->> 'concurrency_key', format('jobs[%s].', v_index));
        perform jq._check_metadata(nullif(v_elem -> 'metadata', 'null'), format('jobs[%s].', v_index));
        v_index := v_index + 1;
    end loop;
end
$$;

--
-- Name: _id_prefix_sql(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._id_prefix_sql(p_prefix text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $$
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

--
-- Name: _install_lock_holders(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._install_lock_holders() RETURNS text
    LANGUAGE sql
    AS $$
    select coalesce(string_agg(distinct format('pid %s (%s, %s, transaction %s s old)', a.pid,
                                               coalesce(nullif(a.application_name, ''), a.backend_type), a.state,
                                               round(extract(epoch from clock_timestamp() - a.xact_start)::numeric, 1)),
                               '; '),
                    'none left')
      from pg_locks l
      join pg_class c on c.oid = l.relation
      join pg_stat_activity a on a.pid = l.pid
     where c.relnamespace = 'jq'::regnamespace and l.granted and l.pid <> pg_backend_pid()
$$;

--
-- Name: _install_lock_tables(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._install_lock_tables() RETURNS void
    LANGUAGE plpgsql
    AS $$
declare
    v_try      interval := coalesce(nullif(current_setting('jq.install_lock_try', true), ''), '20ms')::interval;
    v_wait     interval := coalesce(nullif(current_setting('jq.install_lock_wait', true), ''), '60s')::interval;
    v_timeout  text := current_setting('lock_timeout');
    v_started  timestamptz := clock_timestamp();
    v_try_ends timestamptz;
    v_tries    integer := 0;
    v_warned   boolean := false;
    v_table    regclass;
    v_tables   integer;
begin
    if current_setting('jq.install_locked', true) = 'on' then
        return;
    end if;
    loop
        v_tries := v_tries + 1;
        v_try_ends := clock_timestamp() + v_try;
        v_tables := 0;
        begin
            for v_table in
                select c.oid::regclass
                  from pg_class c
                 where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p', 'v') and not c.relispartition
                 order by c.relname
            loop
                -- What is left of this try, and at least 1 ms (0 would wait for ever).
                perform set_config('lock_timeout',
                                   greatest(1, ceil(extract(epoch from v_try_ends - clock_timestamp()) * 1000))::text,
                                   true);
                execute format('lock table %s in access exclusive mode', v_table);
                v_tables := v_tables + 1;
            end loop;
            perform set_config('lock_timeout', v_timeout, true);
            perform set_config('jq.install_locked', 'on', true);
            -- Calls wait for the commit from here on, so the functions that follow are created
            -- without checking their bodies, half the cost of creating them: a re-run, which
            -- takes no lock, checks them, as the test suite does.
            perform set_config('check_function_bodies', 'off', true);
            -- The server log only (LOG is below the client's NOTICE): how long the install waited.
            raise log 'jq install: locked % tables of schema jq at try %, after % ms', v_tables, v_tries,
                round(extract(epoch from clock_timestamp() - v_started)::numeric * 1000, 1);
            return;
        exception when lock_not_available or deadlock_detected then
            null;  -- the try's locks went with its subtransaction: callers queued behind it go on
        end;
        if clock_timestamp() - v_started > v_wait then
            raise exception 'jq install: could not lock jq''s tables within % (% tries)', v_wait, v_tries
                using errcode = '55P03',
                      detail = 'Sessions holding them: ' || jq._install_lock_holders() || '.',
                      hint = 'Nothing was changed. Run the installer again once they are done, or give it longer: set jq.install_lock_wait (PGOPTIONS=''-c jq.install_lock_wait=10min'').';
        end if;
        if not v_warned and clock_timestamp() - v_started > interval '5 seconds' then
            raise warning 'jq install: waiting for sessions that hold jq''s tables: %', jq._install_lock_holders();
            v_warned := true;
        end if;
        -- A pause that grows with the refusals (up to 0.5 s), with jitter so as not to
        -- keep meeting a periodic caller: what queued behind the try runs meanwhile.
        perform pg_sleep(least(0.5, 0.02 * 1.5 ^ least(v_tries, 20)) * (0.5 + random()));
    end loop;
end
$$;

--
-- Name: _is_filled_text(text, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._is_filled_text(p_value text, p_max integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    select btrim(p_value) <> '' and char_length(p_value) <= p_max
$$;

--
-- Name: _is_metadata_ok(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._is_metadata_ok(p_metadata jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    select p_metadata is null
        or (jsonb_typeof(p_metadata) = 'object'
            and octet_length(p_metadata::text) <= 8192
            and not jsonb_path_exists(p_metadata, 'strict $.* ? (@.type() != "string")'))
$_$;

--
-- Name: _is_queue_name(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._is_queue_name(p_queue text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    select p_queue ~ '^[A-Za-z0-9_.:-]{1,64}$'
$_$;

--
-- Name: _is_run_at_in_range(timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._is_run_at_in_range(p_run_at timestamp with time zone) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
    select p_run_at between '0001-01-02 00:00:00+00' and '9999-12-30 00:00:00+00'
$$;

--
-- Name: _job_cursor(timestamp with time zone, uuid); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_cursor(p_created_at timestamp with time zone, p_id uuid) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    select (extract(epoch from p_created_at) * 1000000)::bigint::text || '.' || replace(p_id::text, '-', '')
$$;

--
-- Name: _job_cursor_sql(text, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_cursor_sql(p_cursor text, p_oldest_first boolean) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $_$
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
$_$;

--
-- Name: _job_filter(jsonb, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_filter(p_filter jsonb, p_dead boolean DEFAULT false) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $_$
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
$_$;

--
-- Name: _job_filter_sql(jsonb, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_filter_sql(p_filter jsonb, p_source text, p_now timestamp with time zone) RETURNS text
    LANGUAGE plpgsql STABLE
    AS $_$
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
$_$;

--
-- Name: _job_json_ok(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_json_ok(p_job jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $_$
    select jsonb_typeof(p_job) = 'object'
       and p_job - array['type', 'payload', 'queue', 'priority', 'run_at', 'max_attempts',
                         'idempotency_key', 'tenant', 'concurrency_key', 'metadata'] = '{}'::jsonb
       and jsonb_typeof(p_job -> 'type') = 'string'
       and jq._is_filled_text(p_job ->> 'type', 128)
       and coalesce(jsonb_typeof(p_job -> 'payload'), 'null') in ('object', 'null')
       and case coalesce(jsonb_typeof(p_job -> 'queue'), 'null')
               when 'null' then true
               when 'string' then jq._is_queue_name(p_job ->> 'queue')
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'priority'), 'null')
               when 'null' then true
               when 'number' then (p_job ->> 'priority')::numeric between -32768 and 32767
                              and (p_job ->> 'priority')::numeric = trunc((p_job ->> 'priority')::numeric)
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'max_attempts'), 'null')
               when 'null' then true
               when 'number' then (p_job ->> 'max_attempts')::numeric between 1 and 1000
                              and (p_job ->> 'max_attempts')::numeric = trunc((p_job ->> 'max_attempts')::numeric)
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'idempotency_key'), 'null')
               when 'null' then true
               when 'string' then jq._is_filled_text(p_job ->> 'idempotency_key', 255)
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'tenant'), 'null')
               when 'null' then true
               when 'string' then jq._is_filled_text(p_job ->> 'tenant', 128)
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'concurrency_key'), 'null')
               when 'null' then true
               when 'string' then jq._is_filled_text(p_job ->> 'concurrency_key', 255)
               else false end
       and case coalesce(jsonb_typeof(p_job -> 'run_at'), 'null')
               when 'null' then true
               when 'string' then (p_job ->> 'run_at')
                   ~ '^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$'
               else false end
       and jq._is_metadata_ok(nullif(p_job -> 'metadata', 'null'))
$_$;

--
-- Name: _job_status_words(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._job_status_words() RETURNS text[]
    LANGUAGE sql IMMUTABLE
    AS $$
    select array['queued', 'scheduled', 'failed_retrying', 'running', 'dead', 'succeeded', 'cancelled']
$$;

--
-- Name: _jobs_columns(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._jobs_columns(p_prefix text) RETURNS text
    LANGUAGE sql
    AS $$
    select string_agg(p_prefix || quote_ident(a.attname), ', ' order by a.attnum)
      from pg_attribute a
     where a.attrelid = 'jq.jobs'::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'generation'
$$;

--
-- Name: _key_is_free(timestamp with time zone, uuid, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._key_is_free(p_expires_at timestamp with time zone, p_job_id uuid, p_now timestamp with time zone) RETURNS boolean
    LANGUAGE sql
    AS $$
    select p_expires_at <= p_now and not exists (select 1 from jq.jobs j where j.id = p_job_id)
$$;

--
-- Name: _key_room(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._key_room(p_type text, p_key text) RETURNS integer
    LANGUAGE sql STABLE
    AS $$
    select l.cap - (select count(*)::integer
                      from (select 1 from jq.jobs r
                             where r.type = p_type and r.concurrency_key = p_key
                               and r.status = 'processing'
                             limit l.cap) x)
      from (select coalesce((select k.max_running from jq.key_limits k where k.type = p_type), 1) as cap) l
$$;

--
-- Name: _lost_attempt_error(text, text, integer, integer, timestamp with time zone, boolean, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._lost_attempt_error(p_cause text, p_worker text, p_attempt integer, p_max_attempts integer, p_locked_until timestamp with time zone, p_spared boolean, p_dead boolean) RETURNS text
    LANGUAGE sql STABLE
    AS $$
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

--
-- Name: _make_history_partitions(timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._make_history_partitions(p_now timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
declare
    v_day     date;
    v_name    text;
    v_from    timestamptz;
    v_to      timestamptz;
    v_created integer := 0;
begin
    for v_day in
        select generate_series((p_now at time zone 'UTC')::date,
                               (p_now at time zone 'UTC')::date + s.history_premake_days,
                               interval '1 day')::date
          from jq.settings s
    loop
        v_name := 'job_history_p' || to_char(v_day, 'YYYYMMDD');
        continue when to_regclass('jq.' || v_name) is not null;
        exit when not jq._try_lock('jq.job_history_default', 'access exclusive', (select s.tick_lock_wait from jq.settings s));
        v_from := v_day::timestamp at time zone 'UTC';
        v_to := (v_day + 1)::timestamp at time zone 'UTC';
        execute format('create table jq.%I (like jq.job_history including defaults including constraints)', v_name);
        execute format('with moved as (delete from jq.job_history_default where finished_at >= %L and finished_at < %L returning *) insert into jq.%I select * from moved',
                       v_from, v_to, v_name);
        execute format('alter table jq.job_history attach partition jq.%I for values from (%L) to (%L)',
                       v_name, v_from, v_to);
        v_created := v_created + 1;
    end loop;
    return v_created;
end
$$;

--
-- Name: _migration_pending(integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._migration_pending(p_version integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
begin
    if exists (select 1 from jq.migrations where version = p_version) then
        return false;
    end if;
    perform jq._install_lock_tables();
    return true;
end
$$;

--
-- Name: _notify_ready(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._notify_ready() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _now(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._now() RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE
    AS $$
begin
    if (select s.allow_test_clock from jq.settings s) then
        return coalesce(nullif(current_setting('jq.now', true), '')::timestamptz, now());
    end if;
    return now();
end
$$;

--
-- Name: FUNCTION _now(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq._now() IS 'Current time for jq: now(), or the timestamp in the jq.now setting when jq.settings.allow_test_clock is on (test databases only).';

--
-- Name: _orphan_jobs(uuid[], timestamp with time zone, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._orphan_jobs(p_ids uuid[], p_now timestamp with time zone, p_cause text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _payload_too_deep(jsonb, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._payload_too_deep(p_payload jsonb, p_depth integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $_$
    select pg_column_size(p_payload) >= 4 * p_depth
       and jsonb_path_exists(p_payload,
               format('strict $.**{%s to last} ? (@.type() == "object" || @.type() == "array")', p_depth)::jsonpath)
$_$;

--
-- Name: _purge_past_retention(timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._purge_past_retention(p_now timestamp with time zone, OUT dead_purged integer, OUT audit_purged integer) RETURNS record
    LANGUAGE plpgsql
    AS $$
declare
    v_settings jq.settings;
begin
    select * into v_settings from jq.settings;
    delete from jq.dead_jobs d
     where d.id in (select x.id from jq.dead_jobs x
                     where x.failed_at < p_now - v_settings.dead_retention
                     order by x.failed_at
                     limit 10000
                       for update skip locked);
    get diagnostics dead_purged = row_count;
    delete from jq.audit_log a
     where a.id in (select x.id from jq.audit_log x
                     where x.at < p_now - v_settings.audit_retention
                     order by x.at
                     limit 10000);
    get diagnostics audit_purged = row_count;
end
$$;

--
-- Name: _raise_bad_argument(text, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._raise_bad_argument(p_message text, p_sqlstate text, p_hint text DEFAULT NULL::text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    AS $$
begin
    if p_hint is null then
        raise exception using message = p_message, errcode = p_sqlstate;
    end if;
    raise exception using message = p_message, errcode = p_sqlstate, hint = p_hint;
end
$$;

--
-- Name: _reap_expired(text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._reap_expired(p_queue text, p_now timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _release_order(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._release_order(p_release text) RETURNS integer[]
    LANGUAGE sql IMMUTABLE
    AS $$
    select string_to_array(p_release, '.')::integer[]
$$;

--
-- Name: _requeue_dead_jobs(uuid[], timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._requeue_dead_jobs(p_ids uuid[], p_now timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _rescue_gone_workers(timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._rescue_gone_workers(p_now timestamp with time zone) RETURNS integer
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _retire(uuid[], text, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._retire(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone) RETURNS integer
    LANGUAGE sql
    AS $$
    select count(*)::integer from jq._retire_jobs(p_ids, p_outcome, p_error, p_now)
$$;

--
-- Name: _retire_jobs(uuid[], text, text, timestamp with time zone, text, jsonb[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._retire_jobs(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone, p_worker text DEFAULT NULL::text, p_results jsonb[] DEFAULT NULL::jsonb[]) RETURNS SETOF uuid
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _runnable_sample(text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._runnable_sample(p_queue text, p_now timestamp with time zone) RETURNS TABLE(type text, run_at timestamp with time zone)
    LANGUAGE sql
    AS $$
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

--
-- Name: _schedule_due_slots(text, text, text, timestamp with time zone, timestamp with time zone, integer, interval); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._schedule_due_slots(p_cron text, p_timezone text, p_missed text, p_after timestamp with time zone, p_now timestamp with time zone, p_max_slots integer, p_grace interval, OUT slots timestamp with time zone[], OUT next_run_at timestamp with time zone, OUT problem text) RETURNS record
    LANGUAGE plpgsql STABLE
    AS $$
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

--
-- Name: _schedule_key(text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._schedule_key(p_name text, p_slot timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    select 'schedule:' || p_name || ':' || to_char(p_slot at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
$$;

--
-- Name: _schedule_offset(text, timestamp with time zone, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._schedule_offset(p_name text, p_slot timestamp with time zone, p_jitter_seconds integer) RETURNS interval
    LANGUAGE sql STABLE
    AS $$
    select case when coalesce(p_jitter_seconds, 0) <= 0 then interval '0'
                else (('x' || substr(md5(p_name || '@' || floor(extract(epoch from p_slot))::bigint::text), 1, 12))
                          ::bit(48)::bigint % (p_jitter_seconds::bigint * 1000)) * interval '1 millisecond' end
$$;

--
-- Name: _storage_backlog_idle(smallint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_backlog_idle(p_generation smallint) RETURNS interval
    LANGUAGE plpgsql
    AS $$
declare
    v_part  regclass := format('jq.jobs_g%s', p_generation)::regclass;
    v_taken bigint;
    v_row   jq.storage_generations;
begin
    select * into v_row from jq.storage_generations g where g.generation = p_generation;
    v_taken := pg_stat_get_tuples_updated(v_part) + pg_stat_get_tuples_deleted(v_part) - v_row.moved;
    if v_row.taken is null or v_taken > v_row.taken then
        update jq.storage_generations g set taken = v_taken, taken_at = clock_timestamp()
         where g.generation = p_generation;
        return interval '0';
    end if;
    return clock_timestamp() - v_row.taken_at;
end
$$;

--
-- Name: _storage_current(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_current() RETURNS smallint
    LANGUAGE sql
    AS $$
    select jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass))
$$;

--
-- Name: _storage_empty(regclass, smallint, timestamp with time zone, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_empty(p_part regclass, p_target smallint, p_wait_after timestamp with time zone, p_batch integer, OUT moved integer, OUT truncated boolean) RETURNS record
    LANGUAGE plpgsql
    AS $_$
declare
    v_ids uuid[];
begin
    execute format('select array(select x.id from %s x limit $1)', p_part) into v_ids using p_batch + 1;
    truncated := cardinality(v_ids) <= p_batch;
    execute format(
        'with gone as (
             delete from %1$s j where j.id = any($3) returning *
         )
         insert into jq.jobs (%2$s, generation)
         select %3$s, case when g.status = ''pending'' and g.deferred and g.run_at > $2 then 3 else $1 end
           from gone g', p_part, jq._jobs_columns(''), jq._jobs_columns('g.'))
        using p_target, p_wait_after, v_ids[1:p_batch];
    get diagnostics moved = row_count;
    if truncated then
        execute format('truncate %s', p_part);
    end if;
end
$_$;

--
-- Name: _storage_empty_marks(smallint, smallint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_empty_marks(p_generation smallint, p_target smallint) RETURNS integer
    LANGUAGE plpgsql
    AS $_$
declare
    v_moved integer;
begin
    execute format('insert into jq.queue_waiters (queue, worker, backend_pid, since, generation)
                    select w.queue, w.worker, w.backend_pid, w.since, $1 from jq.queue_waiters_g%s w
                    on conflict do nothing', p_generation)
       using p_target;
    get diagnostics v_moved = row_count;
    execute format('truncate jq.queue_waiters_g%s', p_generation);
    update jq.storage_generations g
       set marks_truncated_at = clock_timestamp(), marks_truncations = g.marks_truncations + 1,
           marks_moved = g.marks_moved + v_moved
     where g.generation = p_generation;
    return v_moved;
end
$_$;

--
-- Name: _storage_generation(bigint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_generation(p_turns bigint) RETURNS smallint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    select (coalesce(p_turns, 0) % 3)::smallint
$$;

--
-- Name: _storage_generation_empty(smallint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_generation_empty(p_generation smallint) RETURNS boolean
    LANGUAGE sql
    AS $$
    select jq._storage_untouched(format('jq.jobs_g%s', p_generation)::regclass)
       and pg_relation_size(format('jq.queue_waiters_g%s', p_generation)::regclass) = 0
$$;

--
-- Name: settings; Type: TABLE; Schema: jq
--

CREATE TABLE jq.settings (
    singleton boolean DEFAULT true NOT NULL,
    idempotency_window interval DEFAULT '24:00:00'::interval NOT NULL,
    history_retention interval DEFAULT '30 days'::interval NOT NULL,
    history_premake_days integer DEFAULT 3 NOT NULL,
    default_max_attempts integer DEFAULT 25 NOT NULL,
    allow_test_clock boolean DEFAULT false NOT NULL,
    max_payload_bytes integer DEFAULT 1048576 NOT NULL,
    max_payload_depth integer DEFAULT 64 NOT NULL,
    max_error_length integer DEFAULT 8000 NOT NULL,
    worker_gone_after interval DEFAULT '00:00:15'::interval NOT NULL,
    dead_retention interval DEFAULT '30 days'::interval NOT NULL,
    audit_retention interval DEFAULT '90 days'::interval,
    max_result_bytes integer DEFAULT 65536 NOT NULL,
    rotate_storage boolean DEFAULT true NOT NULL,
    waiting_horizon interval DEFAULT '00:05:00'::interval NOT NULL,
    rotation_turn_after interval DEFAULT '00:00:02'::interval NOT NULL,
    rotation_turn_bytes integer DEFAULT 2097152 NOT NULL,
    rotation_min_bytes integer DEFAULT 262144 NOT NULL,
    rotation_move_batch integer DEFAULT 500 NOT NULL,
    rotation_move_limit integer DEFAULT 2000 NOT NULL,
    rotation_backlog_wait interval DEFAULT '00:00:05'::interval NOT NULL,
    tick_lock_wait interval DEFAULT '00:00:00.05'::interval NOT NULL,
    tick_interval interval DEFAULT '00:00:00.25'::interval NOT NULL,
    maintain_interval interval DEFAULT '00:01:00'::interval NOT NULL,
    schedule_fire_batch integer DEFAULT 1000 NOT NULL,
    schedule_missed_grace interval DEFAULT '00:05:00'::interval NOT NULL,
    CONSTRAINT settings_audit_retention_range CHECK (((audit_retention >= '01:00:00'::interval) AND (audit_retention <= '10 years'::interval))),
    CONSTRAINT settings_dead_retention_range CHECK (((dead_retention >= '01:00:00'::interval) AND (dead_retention <= '10 years'::interval))),
    CONSTRAINT settings_default_max_attempts_range CHECK (((default_max_attempts >= 1) AND (default_max_attempts <= 1000))),
    CONSTRAINT settings_history_premake_days_range CHECK (((history_premake_days >= 1) AND (history_premake_days <= 60))),
    CONSTRAINT settings_history_retention_positive CHECK ((history_retention >= '1 day'::interval)),
    CONSTRAINT settings_idempotency_window_positive CHECK ((idempotency_window > '00:00:00'::interval)),
    CONSTRAINT settings_maintain_interval_range CHECK (((maintain_interval >= '00:00:01'::interval) AND (maintain_interval <= '1 day'::interval))),
    CONSTRAINT settings_max_error_length_range CHECK (((max_error_length >= 256) AND (max_error_length <= 1048576))),
    CONSTRAINT settings_max_payload_bytes_range CHECK (((max_payload_bytes >= 1024) AND (max_payload_bytes <= 268435456))),
    CONSTRAINT settings_max_payload_depth_range CHECK (((max_payload_depth >= 1) AND (max_payload_depth <= 10000))),
    CONSTRAINT settings_max_result_bytes_range CHECK (((max_result_bytes >= 0) AND (max_result_bytes <= 1048576))),
    CONSTRAINT settings_rotation_backlog_wait_range CHECK (((rotation_backlog_wait >= '00:00:00'::interval) AND (rotation_backlog_wait <= '1 day'::interval))),
    CONSTRAINT settings_rotation_min_bytes_range CHECK (((rotation_min_bytes >= 0) AND (rotation_min_bytes <= 1073741824))),
    CONSTRAINT settings_rotation_move_batch_range CHECK (((rotation_move_batch >= 10) AND (rotation_move_batch <= 100000))),
    CONSTRAINT settings_rotation_move_limit_range CHECK (((rotation_move_limit >= rotation_move_batch) AND (rotation_move_limit <= 1000000))),
    CONSTRAINT settings_rotation_turn_after_range CHECK (((rotation_turn_after >= '00:00:00.1'::interval) AND (rotation_turn_after <= '01:00:00'::interval))),
    CONSTRAINT settings_rotation_turn_bytes_range CHECK (((rotation_turn_bytes >= 0) AND (rotation_turn_bytes <= 1073741824))),
    CONSTRAINT settings_schedule_fire_batch_range CHECK (((schedule_fire_batch >= 1) AND (schedule_fire_batch <= 100000))),
    CONSTRAINT settings_schedule_missed_grace_range CHECK (((schedule_missed_grace >= '00:00:00'::interval) AND (schedule_missed_grace <= '1 day'::interval))),
    CONSTRAINT settings_singleton CHECK (singleton),
    CONSTRAINT settings_tick_interval_range CHECK (((tick_interval >= '00:00:00.01'::interval) AND (tick_interval <= '00:01:00'::interval))),
    CONSTRAINT settings_tick_lock_wait_range CHECK (((tick_lock_wait >= '00:00:00'::interval) AND (tick_lock_wait <= '00:00:01'::interval))),
    CONSTRAINT settings_waiting_horizon_range CHECK (((waiting_horizon >= '00:00:10'::interval) AND (waiting_horizon <= '1 day'::interval))),
    CONSTRAINT settings_worker_gone_after_range CHECK (((worker_gone_after >= '00:00:05'::interval) AND (worker_gone_after <= '01:00:00'::interval)))
);

--
-- Name: TABLE settings; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.settings IS 'One row of tunables: idempotency window, history retention and premade days, default max_attempts, input bounds (payload bytes and depth, error length, result bytes), how long a silent worker is gone after, and whether the test clock (jq.now) is honoured.';

--
-- Name: COLUMN settings.rotate_storage; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotate_storage IS 'Whether jq_tick rotates the generations of jq.jobs; off, every row stays in the current generation and is vacuumed as a plain table (a held snapshot bloats it).';

--
-- Name: COLUMN settings.waiting_horizon; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.waiting_horizon IS 'A job deferred beyond this when its generation is emptied moves to jq.jobs_waiting, out of the rotation, and comes back when due within it.';

--
-- Name: COLUMN settings.rotation_turn_after; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_turn_after IS 'The next generation becomes current once the current one is this old and holds rotation_min_bytes: how long a held snapshot keeps dead row versions.';

--
-- Name: COLUMN settings.rotation_turn_bytes; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_turn_bytes IS 'The next generation becomes current as soon as the current one''s heap reaches this many bytes, however young; 0: by age only.';

--
-- Name: COLUMN settings.rotation_min_bytes; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_min_bytes IS 'A generation smaller than this on disk (heap, indexes, TOAST) stays current: a truncation costs more than a few hundred kB of dead rows.';

--
-- Name: COLUMN settings.rotation_move_batch; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_move_batch IS 'At most this many live rows move out of a generation per jq_tick call, so its lock stays short; the rest move on the next calls.';

--
-- Name: COLUMN settings.rotation_move_limit; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_move_limit IS 'A generation holding more live rows than this is a backlog, left to the claims while they take from it.';

--
-- Name: COLUMN settings.rotation_backlog_wait; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.rotation_backlog_wait IS 'Once the claims have taken nothing from a backlog for this long (a paused queue, a tenant at its cap, no worker), jq_tick moves its rows in batches.';

--
-- Name: COLUMN settings.tick_lock_wait; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.tick_lock_wait IS 'How long jq_tick keeps trying, without queueing, for a partition''s lock before it leaves the partition for the next call.';

--
-- Name: COLUMN settings.tick_interval; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.tick_interval IS 'How soon jq_tick asks to be called again while jobs flow or a partition was busy.';

--
-- Name: COLUMN settings.maintain_interval; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.maintain_interval IS 'How often jq_tick runs the maintenance (jq_maintain: history partitions, retention, expired keys, gone workers).';

--
-- Name: COLUMN settings.schedule_fire_batch; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.schedule_fire_batch IS 'How many due schedules one jq_tick call fires (jq_schedules_fire_due); more are fired by the next calls, at once.';

--
-- Name: COLUMN settings.schedule_missed_grace; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.settings.schedule_missed_grace IS 'How late a slot of a schedule with missed = none may be and still fire (jq_schedules_fire_due); older missed slots are skipped.';

--
-- Name: _storage_rotate(jq.settings); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_rotate(p_settings jq.settings, OUT account jsonb, OUT call_again_after interval, OUT holding boolean) RETURNS record
    LANGUAGE plpgsql
    AS $_$
declare
    v_current   smallint := jq._storage_current();
    v_oldest    smallint := (v_current + 1) % 3;
    v_gen       smallint;
    v_jobs      regclass;
    v_marks     regclass;
    v_wait_after timestamptz := jq._now() + p_settings.waiting_horizon;
    v_outcome   text := 'idle';
    v_live      integer := 0;
    v_moved     integer := 0;
    v_marks_moved integer;
    v_promoted  integer;
    v_truncated boolean;
    v_holding   boolean := false;
    v_idle      interval;
    v_age       interval;
    v_size      bigint;
    v_turned    boolean;
begin
    holding := false;
    if not p_settings.rotate_storage then
        account := jsonb_build_object('rotation', 'off');
        return;
    end if;
    call_again_after := p_settings.tick_interval;
    v_gen := case when not jq._storage_generation_empty(v_oldest) then v_oldest
                  when not jq._storage_generation_empty(((v_current + 2) % 3)::smallint) then (v_current + 2) % 3 end;
    -- pg_dump takes its snapshot before it locks the tables: a truncation in
    -- between would leave the dump without the moved rows.
    if exists (select 1 from pg_stat_activity a
                where a.datid = (select d.oid from pg_database d where d.datname = current_database())
                  and a.application_name = 'pg_dump' and a.pid <> pg_backend_pid()) then
        account := jsonb_build_object('rotation', 'busy', 'generation', coalesce(v_gen, v_oldest), 'reason', 'pg_dump');
        return;
    end if;
    if v_gen is not null then
        v_jobs := format('jq.jobs_g%s', v_gen)::regclass;
        v_marks := format('jq.queue_waiters_g%s', v_gen)::regclass;
    end if;
    if v_gen is not null and not jq._storage_untouched(v_jobs) then
        execute format('select count(*) from (select from %s x limit $1) x', v_jobs)
           into v_live using p_settings.rotation_move_limit + 1;
        if v_live > p_settings.rotation_move_limit then
            v_idle := jq._storage_backlog_idle(v_gen);
        end if;
        if v_idle < p_settings.rotation_backlog_wait then
            v_outcome := 'backlog';
            call_again_after := least(p_settings.rotation_turn_after, p_settings.rotation_backlog_wait - v_idle);
        elsif not jq._try_lock(v_jobs, 'access exclusive', p_settings.tick_lock_wait) then
            v_outcome := 'busy';
        else
            v_holding := true;
            select e.moved, e.truncated into v_moved, v_truncated
              from jq._storage_empty(v_jobs, v_current, v_wait_after, p_settings.rotation_move_batch) e;
            update jq.storage_generations s
               set truncated_at = case when v_truncated then clock_timestamp() else s.truncated_at end,
                   truncations = s.truncations + v_truncated::integer, moved = s.moved + v_moved,
                   taken = case when v_truncated then null else s.taken end,
                   taken_at = case when v_truncated then null else s.taken_at end
             where s.generation = v_gen;
            v_outcome := case when v_truncated then 'truncated' else 'moving' end;
            call_again_after := interval '0';
        end if;
    end if;

    -- The marks go with their generation's jobs, once the jobs are gone.
    if v_gen is not null and v_outcome in ('idle', 'truncated') and pg_relation_size(v_marks) > 0 then
        if jq._try_lock(v_marks, 'access exclusive',
                        case when v_holding then interval '0' else p_settings.tick_lock_wait end) then
            v_holding := true;
            v_marks_moved := jq._storage_empty_marks(v_gen, v_current);
            call_again_after := interval '0';
        else
            v_outcome := 'busy';
        end if;
    end if;

    -- Turn only in a call that locked nothing: the emptied generation's lock
    -- is held until this call commits, and every insert would wait for it.
    -- Into the oldest generation even when it still holds rows (a backlog
    -- the claims drain, or one the claims keep locked while they work back
    -- to back): each generation then holds a turn's writes, instead of one
    -- growing for the whole flood, and is emptied when it can be.
    if not v_holding then
        select clock_timestamp() - g.current_since into v_age from jq.storage_generations g where g.generation = v_current;
        v_size := pg_total_relation_size(format('jq.jobs_g%s', v_current)::regclass);
        -- By size only into an empty generation: one that kept its rows would
        -- be full at once, and turned away from again at the next call.
        if (p_settings.rotation_turn_bytes > 0
            and pg_relation_size(format('jq.jobs_g%s', v_current)::regclass) >= p_settings.rotation_turn_bytes
            and jq._storage_generation_empty(v_oldest))
           or (v_age >= p_settings.rotation_turn_after and v_size >= p_settings.rotation_min_bytes) then
            perform nextval('jq.storage_turns');
            update jq.storage_generations g set current_since = clock_timestamp() where g.generation = v_oldest;
            v_turned := true;
            if v_outcome = 'idle' then  -- else the outcome of the step before (busy, backlog) stays
                v_outcome := 'turned';
                v_gen := v_oldest;
            end if;
            call_again_after := interval '0';
        elsif v_outcome = 'idle' then
            call_again_after := case when v_size >= p_settings.rotation_min_bytes
                                     then greatest(interval '0', least(p_settings.tick_interval,
                                                                       p_settings.rotation_turn_after - v_age))
                                     else p_settings.rotation_turn_after end;  -- quiet: no turn for a while
        end if;
    end if;

    -- Waiting jobs now due within the horizon come back, soonest first.
    if exists (select 1 from jq.jobs_waiting w where w.run_at <= v_wait_after) then
        if jq._try_lock('jq.jobs_waiting', 'access exclusive',
                        case when v_holding then interval '0' else p_settings.tick_lock_wait end) then
            execute format(
                'with gone as (
                     delete from jq.jobs_waiting w
                      where w.id = any(array(select d.id from jq.jobs_waiting d where d.run_at <= $1
                                              order by d.run_at limit $2))
                     returning w.*
                 )
                 insert into jq.jobs (%1$s, generation)
                 select %2$s, $3 from gone g', jq._jobs_columns(''), jq._jobs_columns('g.'))
                using v_wait_after, p_settings.rotation_move_batch, jq._storage_current();
            get diagnostics v_promoted = row_count;
            v_holding := true;
            if v_promoted = p_settings.rotation_move_batch then
                call_again_after := interval '0';
            end if;
        else
            call_again_after := least(call_again_after, p_settings.tick_interval);
        end if;
    end if;

    holding := v_holding;
    account := jsonb_strip_nulls(jsonb_build_object(
        'rotation', v_outcome,
        'generation', coalesce(v_gen, v_current),
        'moved', nullif(v_moved, 0),
        'marks_moved', v_marks_moved,
        'promoted', v_promoted,
        'turned', case when v_turned and v_outcome <> 'turned' then true end));
end
$_$;

--
-- Name: _storage_untouched(regclass); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._storage_untouched(p_part regclass) RETURNS boolean
    LANGUAGE sql
    AS $$
    select pg_relation_size(p_part) = 0
       and coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0) = 0
       and pg_indexes_size(p_part) + coalesce(pg_indexes_size(nullif(c.reltoastrelid, 0)), 0)
           <= current_setting('block_size')::bigint
              * (select count(*) from pg_index i where i.indrelid in (p_part, c.reltoastrelid))
      from pg_class c
     where c.oid = p_part
$$;

--
-- Name: _take_idempotency_keys(text[], text[], uuid[], timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._take_idempotency_keys(p_queues text[], p_keys text[], p_job_ids uuid[], p_now timestamp with time zone) RETURNS uuid[]
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _tenant_policy(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._tenant_policy(p_queue text, p_tenant text, OUT weight integer, OUT max_running integer) RETURNS record
    LANGUAGE sql STABLE
    AS $$
    select coalesce((array_agg(p.weight order by p.tenant = '*', p.queue = '*')
                        filter (where p.weight is not null))[1], 1),
           (array_agg(p.max_running order by p.tenant = '*', p.queue = '*')
               filter (where p.max_running is not null))[1]
      from jq.tenant_policies p
     where p.queue in (p_queue, '*')
       and p.tenant in (p_tenant, '*')
$$;

--
-- Name: _try_lock(regclass, text, interval); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._try_lock(p_rel regclass, p_mode text, p_patience interval) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
declare
    v_deadline timestamptz := clock_timestamp() + p_patience;
begin
    loop
        begin
            execute format('lock table %s in %s mode nowait', p_rel, p_mode);
            return true;
        exception when lock_not_available then
            if clock_timestamp() >= v_deadline then
                return false;
            end if;
        end;
        perform pg_sleep(0.002);
    end loop;
end
$$;

--
-- Name: _wake_queue(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._wake_queue(p_queue text) RETURNS void
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: _worker_isolation(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq._worker_isolation(p_worker text) RETURNS text
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: error_fingerprint(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.error_fingerprint(p_error text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
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

--
-- Name: FUNCTION error_fingerprint(p_error text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.error_fingerprint(p_error text) IS 'Dead-letter grouping key: the first line of an error with ids, long numbers, UUIDs, timestamps and quoted values replaced by ?. Replaceable.';

--
-- Name: jq_audit_log(timestamp with time zone, text, text, integer, bigint); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_audit_log(p_since timestamp with time zone DEFAULT NULL::timestamp with time zone, p_action text DEFAULT NULL::text, p_actor text DEFAULT NULL::text, p_limit integer DEFAULT 100, p_before_id bigint DEFAULT NULL::bigint) RETURNS TABLE(id bigint, at timestamp with time zone, role text, actor text, action text, target jsonb, rows bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_not_null(p_limit, 'limit', 'Pass a page size between 1 and 1000 (default 100).');
    if p_limit not between 1 and 1000 then
        raise exception 'limit % is out of range', p_limit
            using errcode = '22023', hint = 'Pass a page size between 1 and 1000 (default 100).';
    end if;
    return query
    select a.id, a.at, a.role, a.actor, a.action, a.target, a.rows
      from jq.audit_log a
     where (p_before_id is null or a.id < p_before_id)
       and (p_since is null or a.at >= p_since)
       and (p_action is null or a.action = p_action)
       and (p_actor is null or a.actor = p_actor)
     order by a.id desc
     limit p_limit;
end
$$;

--
-- Name: FUNCTION jq_audit_log(p_since timestamp with time zone, p_action text, p_actor text, p_limit integer, p_before_id bigint); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_audit_log(p_since timestamp with time zone, p_action text, p_actor text, p_limit integer, p_before_id bigint) IS 'The operator audit log (since, action, actor, limit 1..1000 default 100, before_id) -> (id, at, role, actor, action, target, rows), newest first; the next page passes the last id as before_id.';

--
-- Name: jq_cancel(uuid); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_cancel(p_job_id uuid) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_status text;
begin
    perform jq._check_not_null(p_job_id, 'job_id');
    select j.status into v_status from jq.jobs j where j.id = p_job_id for update;
    if v_status = 'pending' then
        perform jq._retire(array[p_job_id], 'cancelled', null, jq._now());
        return 'cancelled';
    elsif v_status = 'processing' then
        update jq.jobs set cancel_requested = true where id = p_job_id;
        return 'running';
    elsif exists (select 1 from jq.dead_jobs where id = p_job_id)
       or exists (select 1 from jq.job_history where id = p_job_id) then
        return 'finished';
    end if;
    return 'not_found';
end
$$;

--
-- Name: FUNCTION jq_cancel(p_job_id uuid); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_cancel(p_job_id uuid) IS 'Cancel a job (job_id) -> cancelled (it was pending or scheduled), running (cancellation requested; cooperative), finished, or not_found.';

--
-- Name: jq_claim(text, text, integer, interval, text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_claim(p_queue text, p_worker text, p_limit integer DEFAULT 1, p_lease interval DEFAULT '00:05:00'::interval, p_types text[] DEFAULT NULL::text[]) RETURNS TABLE(id uuid, queue text, type text, payload jsonb, priority smallint, attempts smallint, max_attempts smallint, tenant text, run_at timestamp with time zone, created_at timestamp with time zone, locked_until timestamp with time zone, idempotency_key text, last_error text, metadata jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now    timestamptz := jq._now();
    v_fair   boolean;                -- the queue shares its slots fairly (not plain)
    v_shared boolean;                -- more than one tenant has ready jobs
    v_groups jq.claim_group[];       -- the ready groups, with their tenants' figures
    v_quotas jq.claim_group[];       -- this round's quotas
    v_taken  jq.claim_job[];         -- what this round took
    v_jobs   jq.claim_job[] := '{}'; -- every job taken
    v_left   integer := p_limit;
    v_round  integer := 0;
    v_isolation text;                -- what the worker may take as to suspects (jq._worker_isolation)
    v_paused boolean;                -- the whole queue is paused (jq_queue_pause)
    v_skip   text[];                 -- its paused types; null when none
    v_suspect_types text[] := p_types;  -- types a suspect may be claimed from
    v_low    smallint;               -- the lowest and highest generation taken from (step 6)
    v_high   smallint;
begin
    perform jq._check_not_null(p_queue, 'queue');
    perform jq._check_worker(p_worker);
    perform jq._check_lease(p_lease);
    if p_limit is null or p_limit < 1 or p_limit > 1000 then
        raise exception 'limit % is out of range', coalesce(p_limit::text, 'null')
            using errcode = '22023', hint = 'Claim between 1 and 1000 jobs at a time.';
    end if;
    -- The caps count running jobs in a statement after their advisory lock is
    -- taken, which sees jobs another claimer just committed only under READ
    -- COMMITTED: a REPEATABLE READ snapshot would let two claimers both take
    -- a tenant's last slot.
    if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'jq_claim needs READ COMMITTED isolation; this transaction is %',
            upper(current_setting('transaction_isolation'))
            using errcode = '25000',
                  hint = 'Claim in a READ COMMITTED transaction of its own (autocommit is fine).';
    end if;
    if p_types is not null and cardinality(p_types) = 0 then
        return;
    end if;

    -- Steps 0-3 (claim_steps.sql has one function per step).
    perform jq._rescue_gone_workers(v_now);  -- sql/functions/workers.sql
    perform jq._reap_expired(p_queue, v_now);
    -- Pauses (queue_pause.sql): one probe of a tiny table. A paused queue
    -- gives nothing; the jobs of a paused type are skipped where candidates
    -- are read (quotas, take; suspects by the types they may be).
    select bool_or(p.type is null), array_agg(p.type) filter (where p.type is not null)
      into v_paused, v_skip
      from jq.queue_pauses p
     where p.queue = p_queue;
    if v_paused then
        return;
    end if;
    if v_skip is not null then
        v_suspect_types := array(select distinct s.type from jq.jobs s
                                  where s.queue = p_queue and s.status = 'pending' and s.orphaned >= 2
                                    and (p_types is null or s.type = any(p_types))
                                    and s.type <> all(v_skip));
    end if;
    -- Suspects (jobs orphaned twice) run alone: a worker holding one claims
    -- nothing else; a worker holding nothing takes one, if any is due.
    v_isolation := jq._worker_isolation(p_worker);
    if v_isolation = 'isolated' then
        return;
    elsif v_isolation = 'idle' and cardinality(v_suspect_types) is distinct from 0 then
        return query select * from jq._claim_suspect(p_queue, p_worker, p_lease, v_now, v_suspect_types);
        if found then
            return;
        end if;
    end if;
    perform jq._claim_promote_due(p_queue, v_now);
    v_groups := jq._claim_ready_groups(p_queue, v_now);
    if cardinality(v_groups) = 0 then
        return;
    end if;
    v_fair := coalesce((select s.fair from jq.queue_settings s where s.queue = p_queue), true);
    v_shared := exists (select 1 from unnest(v_groups) g where g.tkey <> v_groups[1].tkey);
    v_groups := jq._claim_settle_caps(p_queue, v_groups);
    if v_fair and v_shared then
        v_groups := jq._claim_standing(p_queue, v_groups);
    end if;

    -- Step 4: quotas, then take them; again for the slots of groups that ran dry.
    -- Every round fills the claim or finds a group dry (or a tenant out of
    -- room), so this ends within one round per group.
    loop
        v_round := v_round + 1;
        v_quotas := jq._claim_quotas(p_queue, p_types, v_now, v_fair, v_left, v_groups, v_jobs, v_skip);
        exit when cardinality(v_quotas) = 0;
        v_taken := jq._claim_take(p_queue, p_types, v_now, v_quotas, v_jobs, v_skip);
        v_jobs := v_jobs || v_taken;
        v_left := p_limit - cardinality(v_jobs);
        exit when v_left = 0 or v_round > cardinality(v_groups);
        v_groups := jq._claim_charge(v_groups, v_quotas, v_taken);
    end loop;
    if cardinality(v_jobs) = 0 then
        return;
    end if;

    v_jobs := jq._claim_key_caps(v_jobs);  -- step 5
    if cardinality(v_jobs) = 0 then
        return;
    end if;

    -- Step 6, lease (here, not in a step: a step returning the rows would copy
    -- them once more). The update finds the rows by ctid, which this claim's
    -- row locks keep from moving, in the generations between the lowest and
    -- the highest taken from (usually one; a range prunes the others at
    -- execution, where `generation = any(array)` probed every partition).
    -- A ctid names a row only within its partition, hence the id check when
    -- the range spans more than one (only then: it is a linear search). The rows come back in claim order as a
    -- plain queue has it: priority first, then run_at.
    select min(x.generation), max(x.generation) into v_low, v_high from unnest(v_jobs) x;
    return query
    with leased as (
        update jq.jobs j
           set status = 'processing',
               locked_by = p_worker,
               locked_until = v_now + p_lease,
               attempts = j.attempts + 1
         where j.generation between v_low and v_high
           and j.ctid = any (array(select x.ctid from unnest(v_jobs) x))
           and (v_low = v_high or j.id = any (array(select x.id from unnest(v_jobs) x)))
        returning j.id, j.queue, j.type, j.payload, j.priority, j.attempts, j.max_attempts, j.tenant,
                  j.run_at, j.created_at, j.locked_until, j.idempotency_key, j.last_error, j.metadata)
    select l.* from leased l order by l.priority desc, l.run_at, l.id;

    if v_fair and v_shared then  -- step 7
        perform jq._claim_charge_lanes(p_queue, v_now, v_groups, v_jobs);
    end if;
end
$$;

--
-- Name: FUNCTION jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]) IS 'Lease up to limit runnable jobs of a queue (queue, worker, limit, lease, types): priority first, then tenants take turns by weight (plain queues: run_at), oldest first within a tenant; honours tenant and concurrency-key caps; FOR UPDATE SKIP LOCKED; counts an attempt. Hands back jobs of workers gone silent and expired leases first (dead-lettering a job that used up its attempts alone in its worker); suspects (orphaned twice) are claimed alone, by a worker holding nothing.';

--
-- Name: jq_complete(uuid[], text, jsonb[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[] DEFAULT NULL::jsonb[]) RETURNS SETOF uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now timestamptz := jq._now();
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    perform jq._check_results(p_job_ids, p_results);
    return query select * from jq._retire_jobs(p_job_ids, 'succeeded', null, v_now, p_worker, p_results);
end
$$;

--
-- Name: FUNCTION jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]) IS 'Complete jobs this worker holds (job_ids, worker, results parallel to job_ids or null): delete from jq.jobs, append to history as succeeded with each result; returns the ids completed. Jobs whose lease was lost are left alone; a result over settings.max_result_bytes refuses the call (54000).';

--
-- Name: jq_cron_slots(text, text, timestamp with time zone, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone DEFAULT NULL::timestamp with time zone, p_count integer DEFAULT 1) RETURNS TABLE(slot timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone, p_count integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone, p_count integer) IS 'The next count slots (default 1) of a cron in an IANA time zone after a time (null: now) -> slot, as jq_schedules_fire_due fires them (a time in a DST gap at the gap''s end, a repeated time once).';

--
-- Name: jq_dead_delete(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_dead_delete(p_filter jsonb DEFAULT NULL::jsonb, p_ids uuid[] DEFAULT NULL::uuid[], p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_dead_delete(p_filter jsonb, p_ids uuid[], p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_dead_delete(p_filter jsonb, p_ids uuid[], p_limit integer) IS 'Delete dead jobs (filter: jq_jobs keys plus error, a substring of the error; or ids; limit 1..10000 per call) -> how many; repeat until 0. Audited.';

--
-- Name: jq_dead_discard_group(text, text, timestamp with time zone, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_count integer;
begin
    perform jq._check_not_null(p_type, 'p_type');
    perform jq._check_not_null(p_error, 'p_error');
    if p_limit is null or p_limit not between 1 and 10000 then
        perform jq._raise_bad_argument(
            format('p_limit must be between 1 and 10000, got %s', coalesce(p_limit::text, 'null')), '22023');
    end if;
    with picked as (
        select d.id from jq.dead_jobs d
         where d.type = p_type and d.error_fingerprint = p_error
           and (p_since is null or d.failed_at >= p_since)
         order by d.failed_at
         limit p_limit
           for update skip locked
    )
    delete from jq.dead_jobs d using picked where d.id = picked.id;
    get diagnostics v_count = row_count;
    perform jq._audit('dead_discard_group',
                      jsonb_build_object('type', p_type, 'error', p_error, 'since', p_since, 'limit', p_limit),
                      v_count);
    return v_count;
end
$$;

--
-- Name: FUNCTION jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone, p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) IS 'Delete one dead-letter group (type, error fingerprint exactly as jq_dead_groups shows it) failed since p_since, at most p_limit (1..10000) per call, oldest first -> how many; repeat until 0. Audited as dead_discard_group.';

--
-- Name: jq_dead_groups(timestamp with time zone, text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_dead_groups(p_since timestamp with time zone DEFAULT NULL::timestamp with time zone, p_type text DEFAULT NULL::text, p_error text DEFAULT NULL::text) RETURNS TABLE(type text, error text, count bigint, first_failed_at timestamp with time zone, last_failed_at timestamp with time zone, sample_error text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_error_filter(p_error);
    return query
    select g.type, g.error, g.count, g.first_failed_at, g.last_failed_at, g.sample_error
      from jq._dead_groups_matching(p_since, p_type, p_error) g
     order by g.count desc, g.type, g.error;
end
$$;

--
-- Name: FUNCTION jq_dead_groups(p_since timestamp with time zone, p_type text, p_error text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_dead_groups(p_since timestamp with time zone, p_type text, p_error text) IS 'Dead jobs grouped (since, type, error) -> (type, error fingerprint, count, first_failed_at, last_failed_at, sample_error), largest first. error selects a group when it is the fingerprint, a raw message of the group (same fingerprint), or a case-insensitive substring of the fingerprint or of the sample error''s first line.';

--
-- Name: jq_dead_requeue(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_dead_requeue(p_filter jsonb DEFAULT NULL::jsonb, p_ids uuid[] DEFAULT NULL::uuid[], p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_dead_requeue(p_filter jsonb, p_ids uuid[], p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_dead_requeue(p_filter jsonb, p_ids uuid[], p_limit integer) IS 'Requeue dead jobs ready now with fresh attempts (filter: jq_jobs keys plus error, a substring of the error; or ids; limit 1..10000 per call) -> how many; repeat until 0. Audited.';

--
-- Name: jq_enqueue(text, jsonb, text, integer, timestamp with time zone, integer, text, text, text, jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_enqueue(p_type text, p_payload jsonb DEFAULT '{}'::jsonb, p_queue text DEFAULT 'default'::text, p_priority integer DEFAULT 0, p_run_at timestamp with time zone DEFAULT NULL::timestamp with time zone, p_max_attempts integer DEFAULT NULL::integer, p_idempotency_key text DEFAULT NULL::text, p_tenant text DEFAULT NULL::text, p_concurrency_key text DEFAULT NULL::text, p_metadata jsonb DEFAULT NULL::jsonb) RETURNS TABLE(job_id uuid, status text, duplicate boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now    timestamptz := jq._now();
    v_id     uuid := gen_random_uuid();
    v_run_at timestamptz := coalesce(p_run_at, v_now);
    v_holder uuid;
begin
    perform jq._check_job(p_type, p_payload, p_queue, p_priority, p_max_attempts, p_idempotency_key, p_tenant);
    perform jq._check_concurrency_key(p_concurrency_key);
    perform jq._check_metadata(p_metadata);
    if not jq._is_run_at_in_range(v_run_at) then
        raise exception 'run_at % is out of range', p_run_at
            using errcode = '22023', hint = 'run_at is between 0001-01-02 and 9999-12-30 UTC, or null to run now.';
    end if;
    if p_idempotency_key is not null then
        v_holder := (jq._take_idempotency_keys(array[p_queue], array[p_idempotency_key], array[v_id], v_now))[1];
        if v_holder <> v_id then
            return query
                select v_holder, coalesce((select s.status from jq.jq_status(v_holder) s), 'not_found'), true;
            return;
        end if;
    end if;
    insert into jq.jobs (id, queue, type, payload, priority, run_at, max_attempts,
                         idempotency_key, tenant, concurrency_key, deferred, created_at, metadata)
    values (v_id, p_queue, p_type, coalesce(p_payload, '{}'), p_priority, v_run_at,
            coalesce(p_max_attempts, (select default_max_attempts from jq.settings)),
            p_idempotency_key, p_tenant, p_concurrency_key, v_run_at > v_now, v_now, p_metadata);
    return query select v_id, case when v_run_at > v_now then 'scheduled' else 'queued' end, false;
end
$$;

--
-- Name: FUNCTION jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb) IS 'Enqueue one job in the caller''s transaction: (type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata) -> (job_id, status queued|scheduled, duplicate). metadata: an object of strings (traceparent, tracestate), at most 8192 bytes.';

--
-- Name: jq_enqueue_many(jsonb); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_enqueue_many(p_jobs jsonb) RETURNS TABLE(job_id uuid, status text, duplicate boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now     timestamptz := jq._now();
    v_default smallint := (select default_max_attempts from jq.settings);
    v_valid   boolean;
    v_ids     uuid[];
    v_queues  text[];
    v_keys    text[];
    v_run_ats timestamptz[];
    v_holders uuid[];
begin
    perform jq._check_not_null(p_jobs, 'jobs');
    if jsonb_typeof(p_jobs) <> 'array' then
        raise exception 'jobs must be a JSON array of job objects, not %', jsonb_typeof(p_jobs)
            using errcode = '22023';
    elsif jsonb_array_length(p_jobs) > 10000 then
        raise exception 'jobs holds % elements; the limit is 10000 per call', jsonb_array_length(p_jobs)
            using errcode = '22023', hint = 'Split the batch.';
    end if;

    -- Validate every element before writing anything.
    select bool_and(coalesce(jq._job_json_ok(e), false)) into v_valid from jsonb_array_elements(p_jobs) e;
    if not coalesce(v_valid, true) then
        perform jq._explain_bad_job(p_jobs);
        raise exception 'jobs holds an invalid element' using errcode = '22023';  -- not reached
    end if;
    begin
        select array_agg(gen_random_uuid() order by t.ord),
               array_agg(coalesce(t.e ->> 'queue', 'default') order by t.ord),
               array_agg(t.e ->> 'idempotency_key' order by t.ord),
               array_agg(coalesce((t.e ->> 'run_at')::timestamptz, v_now) order by t.ord)
          into v_ids, v_queues, v_keys, v_run_ats
          from jsonb_array_elements(p_jobs) with ordinality as t(e, ord);
    exception when invalid_datetime_format or datetime_field_overflow then
        perform jq._explain_bad_job(p_jobs);
        raise;
    end;
    if exists (select 1 from unnest(v_run_ats) r
                where not jq._is_run_at_in_range(r)) then
        perform jq._explain_bad_job(p_jobs);
    end if;

    perform jq._check_batch_payloads(p_jobs);

    -- Keys first: the first element with a key wins it, a later one with the
    -- same key is a duplicate of the first.
    v_holders := jq._take_idempotency_keys(v_queues, v_keys, v_ids, v_now);

    insert into jq.jobs (id, queue, type, payload, priority, run_at, max_attempts,
                         idempotency_key, tenant, concurrency_key, deferred, created_at, metadata)
    select i.id, i.queue, t.e ->> 'type', coalesce(nullif(t.e -> 'payload', 'null'), '{}'),
           coalesce((t.e ->> 'priority')::numeric::smallint, 0), i.run_at,
           coalesce((t.e ->> 'max_attempts')::numeric::smallint, v_default),
           i.key, t.e ->> 'tenant', t.e ->> 'concurrency_key', i.run_at > v_now, v_now,
           nullif(t.e -> 'metadata', 'null')
      from jsonb_array_elements(p_jobs) with ordinality as t(e, ord)
      join unnest(v_ids, v_holders, v_queues, v_keys, v_run_ats) with ordinality
           as i(id, holder, queue, key, run_at, ord) on i.ord = t.ord
     where i.id = i.holder;

    return query
        select i.holder,
               case when i.id <> i.holder then coalesce((select s.status from jq.jq_status(i.holder) s), 'not_found')
                    when i.run_at > v_now then 'scheduled'
                    else 'queued' end,
               i.id <> i.holder
          from unnest(v_ids, v_holders, v_run_ats) with ordinality as i(id, holder, run_at, ord)
         order by i.ord;
end
$$;

--
-- Name: FUNCTION jq_enqueue_many(p_jobs jsonb); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_enqueue_many(p_jobs jsonb) IS 'Enqueue many jobs in one call: a JSON array of {type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata}; one (job_id, status, duplicate) row per element, in order.';

--
-- Name: jq_fail(uuid, text, text, interval, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_fail(p_job_id uuid, p_worker text, p_error text DEFAULT NULL::text, p_retry_in interval DEFAULT NULL::interval, p_discard boolean DEFAULT false) RETURNS TABLE(status text, next_attempt_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now   timestamptz := jq._now();
    v_job   jq.jobs;
    v_error text := jq._bounded_error(coalesce(nullif(btrim(p_error), ''), 'failed without an error message'));
    v_next  timestamptz;
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_id, 'job_id');
    if p_retry_in is not null and (p_retry_in < interval '0' or p_retry_in > interval '365 days') then
        raise exception 'retry_in % is out of range', p_retry_in
            using errcode = '22023', hint = 'retry_in is between 0 and 365 days, or null for the backoff policy.';
    end if;

    select * into v_job
      from jq.jobs j
     where j.id = p_job_id and j.status = 'processing' and j.locked_by = p_worker
       for update;
    if not found then
        return query select 'lease_lost'::text, null::timestamptz;
        return;
    end if;

    -- This attempt joins the job's attempt log (jq_job_attempts): in the
    -- retry path's own UPDATE; before a job leaves jq.jobs, by one more
    -- statement (once in its life), and jq._retire_jobs carries it along.
    if v_job.cancel_requested or coalesce(p_discard, false) or v_job.attempts >= v_job.max_attempts then
        update jq.jobs j
           set attempt_log = jq._attempt_log_append(j.attempt_log, j.attempts, v_now, p_worker, v_error)
         where j.id = p_job_id;
    end if;

    if v_job.cancel_requested then
        perform jq._retire(array[p_job_id], 'cancelled', v_error, v_now);
        return query select 'cancelled'::text, null::timestamptz;
    elsif coalesce(p_discard, false) or v_job.attempts >= v_job.max_attempts then
        perform jq._retire(array[p_job_id], 'dead', v_error, v_now);
        return query select 'dead'::text, null::timestamptz;
    else
        -- At the latest where every client can still read it (run_at's range in jq_enqueue).
        v_next := least(v_now + coalesce(p_retry_in, jq.retry_delay(v_job.attempts)), '9999-12-30 00:00:00+00');
        update jq.jobs
           set status = 'pending', locked_by = null, locked_until = null,
               run_at = v_next, deferred = v_next > v_now, last_error = v_error,
               attempt_log = jq._attempt_log_append(attempt_log, attempts, v_now, p_worker, v_error)
         where id = p_job_id;
        return query select 'failed_retrying'::text, v_next;
    end if;
end
$$;

--
-- Name: FUNCTION jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean) IS 'Record a failed attempt (job_id, worker, error, retry_in, discard): retry after retry_in or jq.retry_delay(attempts), or dead-letter when attempts are used up or discard; -> (status failed_retrying|dead|cancelled|lease_lost, next_attempt_at).';

--
-- Name: jq_heartbeat(uuid[], text, interval); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval DEFAULT '00:05:00'::interval) RETURNS TABLE(job_id uuid, state text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now timestamptz := jq._now();
begin
    perform jq._check_worker(p_worker);
    perform jq._check_lease(p_lease);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    return query
    with asked as (
        select distinct a.id from unnest(p_job_ids) as a(id) where a.id is not null
    ), extended as (
        update jq.jobs j
           set locked_until = v_now + p_lease
          from asked a
         where j.id = a.id and j.status = 'processing' and j.locked_by = p_worker
        returning j.id, j.cancel_requested
    )
    select a.id,
           case when e.id is null then 'lost'
                when e.cancel_requested then 'cancel_requested'
                else 'ok' end
      from asked a
      left join extended e on e.id = a.id;
end
$$;

--
-- Name: FUNCTION jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval) IS 'Extend leases this worker holds (job_ids, worker, lease) -> (job_id, state ok|lost|cancel_requested) per job.';

--
-- Name: jq_job_attempts(uuid); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_job_attempts(p_job_id uuid) RETURNS TABLE(attempt integer, failed_at timestamp with time zone, worker text, error text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_not_null(p_job_id, 'job_id');
    return query
    with found as (
        select s.log, s.last_error, s.attempts, s.failed_at
          from (select 1 as place, j.attempt_log as log, j.last_error, j.attempts::integer as attempts,
                       null::timestamptz as failed_at
                  from jq.jobs j where j.id = p_job_id
                union all
                select 2, d.attempt_log, d.last_error, d.attempts::integer, d.failed_at
                  from jq.dead_jobs d where d.id = p_job_id
                union all
                select 3, h.attempt_log, h.last_error, h.attempts::integer, null
                  from jq.job_history h where h.id = p_job_id) s
         order by s.place
         limit 1
    )
    select a.attempt, a.failed_at, a.worker, a.error
      from (select (e.entry ->> 'attempt')::integer as attempt, (e.entry ->> 'at')::timestamptz as failed_at,
                   e.entry ->> 'worker' as worker, e.entry ->> 'error' as error, e.ord
              from found f
             cross join lateral jsonb_array_elements(f.log) with ordinality as e(entry, ord)
             where f.log is not null
            union all
            select f.attempts, f.failed_at, null, f.last_error, 0
              from found f
             where f.log is null and f.last_error is not null) a
     order by a.ord;
end
$$;

--
-- Name: FUNCTION jq_job_attempts(p_job_id uuid); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_job_attempts(p_job_id uuid) IS 'Failed attempts of a job wherever it is (job_id) -> (attempt, failed_at, worker, error), oldest first, the last 10 kept (attempts lost with their worker included, their cause as the error); a job from before 0.5.0 shows its last_error as its last attempt.';

--
-- Name: jq_job_detail(uuid); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_job_detail(p_job_id uuid) RETURNS TABLE(job_id uuid, location text, payload jsonb, idempotency_key text, concurrency_key text, lease_holder text, lease_until timestamp with time zone)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select j.id, 'live', j.payload, j.idempotency_key, j.concurrency_key, j.locked_by, j.locked_until
      from jq.jobs j where j.id = p_job_id
    union all
    select d.id, 'dead', d.payload, d.idempotency_key, d.concurrency_key, null, null
      from jq.dead_jobs d where d.id = p_job_id
    union all
    select h.id, 'history', null, h.idempotency_key, null, null, null
      from jq.job_history h where h.id = p_job_id
     limit 1
$$;

--
-- Name: FUNCTION jq_job_detail(p_job_id uuid); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_job_detail(p_job_id uuid) IS 'A job''s payload, keys and lease wherever it is (job_id) -> (job_id, location live|dead|history, payload, idempotency_key, concurrency_key, lease_holder, lease_until); history keeps no payload; no row if unknown.';

--
-- Name: jq_jobs(jsonb, integer, text, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_jobs(p_filter jsonb DEFAULT '{}'::jsonb, p_limit integer DEFAULT 50, p_cursor text DEFAULT NULL::text, p_oldest_first boolean DEFAULT false) RETURNS TABLE(job_id uuid, type text, queue text, status text, priority integer, tenant text, attempts smallint, max_attempts smallint, run_at timestamp with time zone, created_at timestamp with time zone, finished_at timestamp with time zone, last_error text, cursor text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $_$
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
$_$;

--
-- Name: FUNCTION jq_jobs(p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_jobs(p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean) IS 'List jobs wherever they are (filter jsonb: queue, type, status word(s), tenant, payload @>, created_after/before, finished_after/before, id_prefix; limit 1..1000; cursor; oldest_first) -> (job_id, type, queue, status, priority, tenant, attempts, max_attempts, run_at, created_at, finished_at, last_error, cursor), newest first by keyset.';

--
-- Name: jq_jobs_cancel(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_jobs_cancel(p_filter jsonb DEFAULT NULL::jsonb, p_ids uuid[] DEFAULT NULL::uuid[], p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $_$
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
$_$;

--
-- Name: FUNCTION jq_jobs_cancel(p_filter jsonb, p_ids uuid[], p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_jobs_cancel(p_filter jsonb, p_ids uuid[], p_limit integer) IS 'Cancel jobs (filter or ids, limit 1..10000 per call) -> how many: pending ones go to history as cancelled, running ones get cancel_requested (as jq_cancel); repeat until 0. Audited.';

--
-- Name: jq_jobs_discard(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_jobs_discard(p_filter jsonb DEFAULT NULL::jsonb, p_ids uuid[] DEFAULT NULL::uuid[], p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $_$
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
$_$;

--
-- Name: FUNCTION jq_jobs_discard(p_filter jsonb, p_ids uuid[], p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_jobs_discard(p_filter jsonb, p_ids uuid[], p_limit integer) IS 'Move pending jobs to the dead letters as ''discarded by operator'' (filter or ids, limit 1..10000 per call) -> how many; repeat until 0. Audited.';

--
-- Name: jq_jobs_retry(jsonb, uuid[], integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_jobs_retry(p_filter jsonb DEFAULT NULL::jsonb, p_ids uuid[] DEFAULT NULL::uuid[], p_limit integer DEFAULT 1000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $_$
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
$_$;

--
-- Name: FUNCTION jq_jobs_retry(p_filter jsonb, p_ids uuid[], p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_jobs_retry(p_filter jsonb, p_ids uuid[], p_limit integer) IS 'Make scheduled and failed_retrying jobs ready now (filter or ids, limit 1..10000 per call) -> how many; FOR UPDATE SKIP LOCKED; repeat until 0. Audited.';

--
-- Name: jq_key_limit_delete(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_key_limit_delete(p_type text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_found boolean;
begin
    perform jq._check_not_null(p_type, 'type');
    delete from jq.key_limits k where k.type = p_type;
    get diagnostics v_found = row_count;
    return jq._audited_found('key_limit_delete', jsonb_build_object('type', p_type), v_found);
end
$$;

--
-- Name: FUNCTION jq_key_limit_delete(p_type text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_key_limit_delete(p_type text) IS 'Drop the key limit of a type (back to 1 running job per concurrency_key); true when one existed.';

--
-- Name: jq_key_limit_set(text, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_key_limit_set(p_type text, p_max_running integer) RETURNS TABLE(type text, max_running integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_text(p_type, 'type', 128);
    perform jq._check_not_null(p_max_running, 'max_running', 'To go back to the default of 1, call jq_key_limit_delete.');
    if p_max_running not between 1 and 1000000 then
        raise exception 'max_running % is out of range', p_max_running using errcode = '22023',
            hint = 'max_running is between 1 and 1000000.';
    end if;
    return query
    insert into jq.key_limits as k (type, max_running, updated_at)
    values (p_type, p_max_running, now())
    on conflict on constraint key_limits_pkey do update
       set max_running = excluded.max_running, updated_at = excluded.updated_at
    returning k.type, k.max_running;
    perform jq._audit('key_limit_set', jsonb_build_object('type', p_type, 'max_running', p_max_running), 1);
end
$$;

--
-- Name: FUNCTION jq_key_limit_set(p_type text, p_max_running integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_key_limit_set(p_type text, p_max_running integer) IS 'Let up to max_running jobs of a type that share one concurrency_key run at once (default 1): (type, max_running) -> the row.';

--
-- Name: jq_limits(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_limits() RETURNS TABLE(max_payload_bytes integer, max_payload_depth integer, max_error_length integer, max_result_bytes integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select s.max_payload_bytes, s.max_payload_depth, s.max_error_length, s.max_result_bytes from jq.settings s
$$;

--
-- Name: FUNCTION jq_limits(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_limits() IS 'The bounds in jq.settings now -> (max_payload_bytes, max_payload_depth, max_error_length, max_result_bytes): payload size and nesting refused over the limit, error text cut, results refused over the limit (bytes of their JSON text).';

--
-- Name: jq_maintain(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_maintain() RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_now     timestamptz := jq._now();
    v_created integer;
    v_dropped integer;
    v_purged  integer;
    v_reaped  integer := 0;
    v_lanes   integer;
    v_rescued integer;
    v_workers integer;
    v_queue   text;
    v_expired record;  -- dead jobs and audit rows past retention
begin
    if not pg_try_advisory_xact_lock(hashtext('jq.maintain')) then
        return jsonb_build_object('skipped', true);
    end if;

    -- Drop before creating: dropping a partition takes an ACCESS EXCLUSIVE
    -- lock on jq.job_history, attaching one locks the default partition. Taken
    -- the other way round, a completion routed to the default partition (it
    -- holds job_history, waits for the default) deadlocks with us.
    v_dropped := jq._drop_history_partitions(v_now);
    v_created := jq._make_history_partitions(v_now);

    with expired as (
        select k.queue, k.idempotency_key
          from jq.idempotency_keys k
         where k.expires_at <= v_now
           and not exists (select 1 from jq.jobs j where j.id = k.job_id)
         limit 50000
    )
    delete from jq.idempotency_keys k
     using expired e
     where k.queue = e.queue and k.idempotency_key = e.idempotency_key;
    get diagnostics v_purged = row_count;

    -- Waiting marks of workers whose connection is gone (crashed, killed).
    delete from jq.queue_waiters w
     where not exists (select 1 from pg_stat_activity a where a.pid = w.backend_pid);

    -- Fair lanes idle for a day: a tenant that comes back starts level with
    -- the others anyway, so its old pass is of no use. Locked lanes (a claim
    -- is writing them) are left for next time.
    delete from jq.fair_lanes l
     where l.ctid in (select f.ctid from jq.fair_lanes f
                       where f.updated_at < v_now - interval '1 day'
                       limit 10000
                         for update skip locked);
    get diagnostics v_lanes = row_count;

    -- Workers gone silent: their jobs back at once (sql/functions/workers.sql);
    -- registrations declared gone an hour ago are forgotten.
    v_rescued := jq._rescue_gone_workers(v_now);
    delete from jq.workers w where w.gone_at < v_now - interval '1 hour';
    get diagnostics v_workers = row_count;

    for v_queue in
        select distinct j.queue from jq.jobs j where j.status = 'processing' and j.locked_until < v_now
    loop
        v_reaped := v_reaped + jq._reap_expired(v_queue, v_now);
    end loop;

    select * into v_expired from jq._purge_past_retention(v_now);

    return jsonb_build_object(
        'skipped', false,
        'partitions_created', v_created,
        'partitions_dropped', v_dropped,
        'keys_purged', v_purged,
        'leases_reaped', v_reaped,
        'lanes_purged', v_lanes,
        'jobs_rescued', v_rescued,
        'workers_purged', v_workers,
        'dead_purged', v_expired.dead_purged,
        'audit_purged', v_expired.audit_purged);
end
$$;

--
-- Name: FUNCTION jq_maintain(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_maintain() IS 'Housekeeping, safe from many workers at once: create history partitions ahead, drop those past retention, purge expired idempotency keys, declare silent workers gone and requeue their jobs, reap expired leases, forget fair lanes idle for a day and workers gone for an hour, delete dead jobs past dead_retention and audit rows past audit_retention (10,000 each per call). -> jsonb summary.';

--
-- Name: jq_queue_pause(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_queue_pause(p_queue text, p_type text DEFAULT NULL::text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_queue_pause(p_queue text, p_type text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_queue_pause(p_queue text, p_type text) IS 'Pause a queue (queue, type null) or one type in it (queue, type): claims skip it from the next call on; running jobs finish, enqueue still works. True when newly paused. Audited.';

--
-- Name: jq_queue_pauses(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_queue_pauses() RETURNS TABLE(queue text, type text, paused_at timestamp with time zone, paused_by text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select p.queue, p.type, p.paused_at, p.paused_by
      from jq.queue_pauses p
     order by p.queue, p.type nulls first
$$;

--
-- Name: FUNCTION jq_queue_pauses(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_queue_pauses() IS 'Paused queues and (queue, type) pairs -> (queue, type null for the whole queue, paused_at, paused_by).';

--
-- Name: jq_queue_resume(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_queue_resume(p_queue text, p_type text DEFAULT NULL::text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_queue_resume(p_queue text, p_type text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_queue_resume(p_queue text, p_type text) IS 'Resume a paused queue or (queue, type): true when it was paused; wakes the queue''s waiting workers (NOTIFY). Audited.';

--
-- Name: jq_queue_set_fair(text, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_queue_set_fair(p_queue text, p_fair boolean) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_queue(p_queue);
    perform jq._check_not_null(p_fair, 'fair', 'true: tenants take turns (default); false: plain FIFO by priority then run_at.');
    insert into jq.queue_settings as s (queue, fair, updated_at) values (p_queue, p_fair, now())
    on conflict on constraint queue_settings_pkey do update
       set fair = excluded.fair, updated_at = excluded.updated_at;
    perform jq._audit('queue_set_fair', jsonb_build_object('queue', p_queue, 'fair', p_fair), 1);
    return p_fair;
end
$$;

--
-- Name: FUNCTION jq_queue_set_fair(p_queue text, p_fair boolean); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_queue_set_fair(p_queue text, p_fair boolean) IS 'Choose how jq_claim orders a queue: (queue, fair) with fair true = tenants take turns within a priority (default), false = plain FIFO by priority then run_at. Caps apply either way.';

--
-- Name: jq_release(uuid[], text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_release(p_job_ids uuid[], p_worker text) RETURNS TABLE(job_id uuid, status text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
declare
    v_now       timestamptz := jq._now();
    v_held      uuid[];
    v_cancelled uuid[];
begin
    perform jq._check_worker(p_worker);
    perform jq._check_not_null(p_job_ids, 'job_ids');
    select array_agg(j.id), array_agg(j.id) filter (where j.cancel_requested)
      into v_held, v_cancelled
      from (select j.id, j.cancel_requested from jq.jobs j
             where j.id = any(p_job_ids) and j.status = 'processing' and j.locked_by = p_worker
             order by j.id
               for update) j;
    if v_held is null then
        return;
    end if;
    if v_cancelled is not null then
        perform jq._retire(v_cancelled, 'cancelled', 'cancelled while its worker shut down', v_now);
    end if;
    return query
    with released as (
        update jq.jobs j
           set status = 'pending', locked_by = null, locked_until = null,
               attempts = greatest(j.attempts - 1, 0), deferred = j.run_at > v_now
         where j.id = any(v_held) and j.status = 'processing'
        returning j.id
    )
    select r.id, 'released'::text from released r
    union all
    select c.id, 'cancelled'::text from unnest(v_cancelled) as c(id);
end
$$;

--
-- Name: FUNCTION jq_release(p_job_ids uuid[], p_worker text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_release(p_job_ids uuid[], p_worker text) IS 'Hand leased jobs back unrun (job_ids, worker), e.g. on shutdown: pending again, attempt not counted; cancellation-requested jobs are cancelled. -> (job_id, status released|cancelled).';

--
-- Name: jq_retry_dead(text, text, timestamp with time zone, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_retry_dead(p_type text DEFAULT NULL::text, p_error text DEFAULT NULL::text, p_since timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT NULL::integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_now    timestamptz := jq._now();
    v_types  text[];
    v_errors text[];
    v_ids    uuid[];
    v_count  integer := 0;
begin
    if p_limit is not null and p_limit < 1 then
        raise exception 'limit % is out of range', p_limit
            using errcode = '22023', hint = 'Pass a positive limit, or null for every matching job.';
    end if;
    perform jq._check_error_filter(p_error);
    select array_agg(g.type), array_agg(g.error) into v_types, v_errors
      from jq._dead_groups_matching(p_since, p_type, p_error) g;
    -- Collect the ids first and move them with id = any(...): a join against
    -- the chosen rows would be planned from jq.dead_jobs' statistics, which
    -- are often far off (the table swings between empty and tens of
    -- thousands), and a nested loop over 20,000 rows took minutes. Here the
    -- few matched groups drive probes of dead_jobs_group_idx.
    if v_types is not null then
        select array_agg(c.id) into v_ids
          from (select d.id
                  from unnest(v_types, v_errors) as g(type, error)
                  join jq.dead_jobs d on d.type = g.type and d.error_fingerprint = g.error
                 where (p_since is null or d.failed_at >= p_since)
                 order by d.failed_at
                 limit p_limit
                   for update of d skip locked) c;
    end if;
    if v_ids is not null then
        v_count := jq._requeue_dead_jobs(v_ids, v_now);
    end if;
    perform jq._audit('retry_dead',
                      jsonb_strip_nulls(jsonb_build_object('type', p_type, 'error', p_error,
                                                           'since', p_since, 'limit', p_limit)),
                      v_count);
    return v_count;
end
$$;

--
-- Name: FUNCTION jq_retry_dead(p_type text, p_error text, p_since timestamp with time zone, p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_retry_dead(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) IS 'Requeue dead jobs (type, error, since, limit) of the groups jq_dead_groups(since, type, error) lists; attempts reset; audited; returns the number requeued, 0 when nothing matched.';

--
-- Name: jq_schedule_delete(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedule_delete(p_name text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_schedule_name(p_name);
    delete from jq.schedules s where s.name = p_name;
    return jq._audited_found('schedule_delete', jsonb_build_object('name', p_name), found);
end
$$;

--
-- Name: FUNCTION jq_schedule_delete(p_name text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedule_delete(p_name text) IS 'Delete a schedule (name) -> true, or false if there was none. Jobs already enqueued stay.';

--
-- Name: jq_schedule_pause(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedule_pause(p_name text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_schedule_name(p_name);
    update jq.schedules s
       set enabled = false,
           updated_at = case when s.enabled then jq._now() else s.updated_at end
     where s.name = p_name;
    return jq._audited_found('schedule_pause', jsonb_build_object('name', p_name), found);
end
$$;

--
-- Name: FUNCTION jq_schedule_pause(p_name text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedule_pause(p_name text) IS 'Pause a schedule (name) -> true, or false if there was none. Slots while paused never fire.';

--
-- Name: jq_schedule_put(text, text, text, text, jsonb, text, integer, integer, integer, text, timestamp with time zone); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb DEFAULT '{}'::jsonb, p_queue text DEFAULT 'default'::text, p_priority integer DEFAULT 0, p_jitter_seconds integer DEFAULT 0, p_max_attempts integer DEFAULT NULL::integer, p_missed text DEFAULT 'latest'::text, p_next_run_at timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS TABLE(name text, created boolean, next_run_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb, p_queue text, p_priority integer, p_jitter_seconds integer, p_max_attempts integer, p_missed text, p_next_run_at timestamp with time zone); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb, p_queue text, p_priority integer, p_jitter_seconds integer, p_max_attempts integer, p_missed text, p_next_run_at timestamp with time zone) IS 'Create or update a schedule (name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed latest|all|none, next_run_at) -> (name, created, next_run_at).';

--
-- Name: jq_schedule_resume(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedule_resume(p_name text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_schedule_resume(p_name text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedule_resume(p_name text) IS 'Resume a paused schedule (name) from now on -> true, or false if there was none. Slots missed while paused do not fire.';

--
-- Name: jq_schedules(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedules(p_name text DEFAULT NULL::text) RETURNS TABLE(name text, cron text, timezone text, type text, payload jsonb, queue text, priority smallint, jitter_seconds integer, max_attempts smallint, missed text, paused boolean, next_run_at timestamp with time zone, last_slot_at timestamp with time zone, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select s.name, s.cron, s.timezone, s.type, s.payload, s.queue, s.priority, s.jitter_seconds, s.max_attempts,
           s.missed, not s.enabled, s.next_run_at, s.last_slot_at, s.created_at, s.updated_at
      from jq.schedules s
     where p_name is null or s.name = p_name
     order by s.name
$$;

--
-- Name: FUNCTION jq_schedules(p_name text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedules(p_name text) IS 'Schedules (name: one, null: all) -> (name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed, paused, next_run_at, last_slot_at, created_at, updated_at).';

--
-- Name: jq_schedules_due(integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedules_due(p_limit integer DEFAULT 1000) RETURNS TABLE(name text, cron text, timezone text, missed text, next_run_at timestamp with time zone, updated_at timestamp with time zone, as_of timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_schedules_due(p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedules_due(p_limit integer) IS 'Scheduler: claim up to limit due schedules (next_run_at <= now, or null) FOR UPDATE SKIP LOCKED -> (name, cron, timezone, missed, next_run_at, updated_at, as_of). Fire them with jq_schedules_fire in the same transaction.';

--
-- Name: jq_schedules_fire(text[], timestamp with time zone[], timestamp with time zone[], timestamp with time zone[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]) RETURNS TABLE(schedules integer, jobs integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_custom_plan'
    AS $$
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

--
-- Name: FUNCTION jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]) IS 'Scheduler: fire slots (names, due_at, slots, next_run_at; one element per schedule and slot) -> (schedules advanced, jobs enqueued). Advances only schedules whose next_run_at is still due_at; one job per slot, keyed schedule:<name>:<slot UTC>, run_at = slot + deterministic jitter.';

--
-- Name: jq_schedules_fire_due(integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_schedules_fire_due(p_limit integer DEFAULT 500) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_schedules_fire_due(p_limit integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_schedules_fire_due(p_limit integer) IS 'Fire due schedules (limit, default 500): claim them FOR UPDATE SKIP LOCKED, compute their slots under missed, enqueue one job per slot -> jobs enqueued. jq_tick calls it; any number of callers at once fire each slot once.';

--
-- Name: jq_set_waiting(text[], text, boolean); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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

--
-- Name: FUNCTION jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean) IS 'Mark a worker waiting (true) or busy (false) on queues (queues, worker, waiting): inserts NOTIFY jq_<queue> only while someone waits. Call on the LISTEN connection.';

--
-- Name: jq_stats(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_stats() RETURNS TABLE(queue text, ready bigint, scheduled bigint, running bigint, oldest_ready_age interval, dead bigint, paused boolean)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    -- (select jq._now()): evaluated once per statement (an InitPlan); jq._now() itself is not inlined
    -- (its body has a sub-select), and called per row it cost about 1 s per 100,000 jobs.
    with live as (
        select j.queue,
               count(*) filter (where j.status = 'pending' and j.run_at <= (select jq._now())) as ready,
               count(*) filter (where j.status = 'pending' and j.run_at > (select jq._now())) as scheduled,
               count(*) filter (where j.status = 'processing') as running,
               (select jq._now()) - min(j.run_at) filter (where j.status = 'pending' and j.run_at <= (select jq._now()))
                   as oldest_ready_age
          from jq.jobs j
         group by j.queue
    ), buried as (
        select d.queue, count(*) as dead from jq.dead_jobs d group by d.queue
    ), counted as (
        select coalesce(l.queue, b.queue) as queue, coalesce(l.ready, 0) as ready,
               coalesce(l.scheduled, 0) as scheduled, coalesce(l.running, 0) as running,
               l.oldest_ready_age, coalesce(b.dead, 0) as dead
          from live l
          full join buried b on b.queue = l.queue
    ), paused as (
        select p.queue from jq.queue_pauses p where p.type is null
    )
    select coalesce(c.queue, p.queue), coalesce(c.ready, 0), coalesce(c.scheduled, 0), coalesce(c.running, 0),
           c.oldest_ready_age, coalesce(c.dead, 0), p.queue is not null
      from counted c
      full join paused p on p.queue = c.queue
     order by 1
$$;

--
-- Name: FUNCTION jq_stats(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_stats() IS 'Per queue: (queue, ready, scheduled, running, oldest_ready_age, dead, paused: the whole queue is paused).';

--
-- Name: jq_status(uuid); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_status(p_job_id uuid) RETURNS TABLE(job_id uuid, type text, queue text, status text, attempts smallint, max_attempts smallint, run_at timestamp with time zone, next_attempt_at timestamp with time zone, last_error text, created_at timestamp with time zone, finished_at timestamp with time zone, tenant text, priority smallint, cancel_requested boolean, result jsonb)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select found.job_id, found.type, found.queue, found.status, found.attempts, found.max_attempts,
           found.run_at, found.next_attempt_at, found.last_error, found.created_at, found.finished_at,
           found.tenant, found.priority, found.cancel_requested, found.result
      from (
        select j.id as job_id, j.type, j.queue,
               case when j.status = 'processing' then 'running'
                    when j.attempts > 0 then 'failed_retrying'
                    when j.run_at > jq._now() then 'scheduled'
                    else 'queued' end as status,
               j.attempts, j.max_attempts, j.run_at,
               case when j.status = 'pending' and j.attempts > 0 then j.run_at end as next_attempt_at,
               j.last_error, j.created_at, null::timestamptz as finished_at,
               j.tenant, j.priority, j.cancel_requested, null::jsonb as result, 1 as source
          from jq.jobs j
         where j.id = p_job_id
        union all
        select d.id, d.type, d.queue, 'dead', d.attempts, d.max_attempts, d.run_at, null,
               d.last_error, d.created_at, d.failed_at, d.tenant, d.priority, false, null, 2
          from jq.dead_jobs d
         where d.id = p_job_id
        union all
        select h.id, h.type, h.queue, h.status, h.attempts, h.max_attempts, h.run_at, null,
               h.last_error, h.created_at, h.finished_at, h.tenant, null, false, h.result, 3
          from jq.job_history h
         where h.id = p_job_id
      ) found
     order by found.source, found.finished_at desc nulls first
     limit 1
$$;

--
-- Name: FUNCTION jq_status(p_job_id uuid); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_status(p_job_id uuid) IS 'Status of one job wherever it is (job_id) -> (job_id, type, queue, status scheduled|queued|running|failed_retrying|succeeded|cancelled|dead, attempts, max_attempts, run_at, next_attempt_at, last_error, created_at, finished_at, tenant, priority, cancel_requested, result); no row if unknown.';

--
-- Name: jq_storage(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_storage() RETURNS TABLE(generation smallint, partition_name text, role text, live_rows bigint, dead_rows bigint, bytes bigint, truncated_at timestamp with time zone, truncations bigint, moved bigint)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select p.generation, p.part,
           case when p.generation = 3 then 'waiting'
                when p.generation = jq._storage_current() then 'current'
                when p.generation = (jq._storage_current() + 2) % 3 then 'previous'
                else 'oldest' end,
           coalesce(s.n_live_tup, 0), coalesce(s.n_dead_tup, 0),
           pg_total_relation_size(format('jq.%I', p.part)::regclass),
           case when p.marks then g.marks_truncated_at else g.truncated_at end,
           coalesce(case when p.marks then g.marks_truncations else g.truncations end, 0),
           coalesce(case when p.marks then g.marks_moved else g.moved end, 0)
      from (values (0::smallint, 'jobs_g0', false), (1::smallint, 'jobs_g1', false),
                   (2::smallint, 'jobs_g2', false), (3::smallint, 'jobs_waiting', false),
                   (0::smallint, 'queue_waiters_g0', true), (1::smallint, 'queue_waiters_g1', true),
                   (2::smallint, 'queue_waiters_g2', true)) as p(generation, part, marks)
      left join pg_stat_user_tables s on s.relid = format('jq.%I', p.part)::regclass
      left join jq.storage_generations g on g.generation = p.generation
     order by p.marks, p.generation
$$;

--
-- Name: FUNCTION jq_storage(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_storage() IS 'The partitions of jq.jobs, then those of jq.queue_waiters -> (generation, partition_name, role: current/previous/oldest/waiting, live_rows and dead_rows from the statistics, bytes with indexes and TOAST, truncated_at, truncations, moved). What jq_tick keeps small.';

--
-- Name: jq_tenant_policies(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_tenant_policies() RETURNS TABLE(queue text, tenant text, weight integer, max_running integer, updated_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select t.queue, nullif(t.tenant, ''), t.weight, t.max_running, t.updated_at
      from jq.tenant_policies t
     order by t.queue, t.tenant
$$;

--
-- Name: FUNCTION jq_tenant_policies(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_tenant_policies() IS 'Every tenant policy row: (queue, tenant, weight, max_running, updated_at); tenant null is jobs without a tenant, * a default.';

--
-- Name: jq_tenant_policy_delete(text, text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_tenant_policy_delete(p_queue text, p_tenant text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_found boolean;
begin
    perform jq._check_queue(p_queue, p_wildcard => true);
    -- No length limit here: a tenant too long for a policy simply has none.
    perform jq._check_text(p_tenant, 'tenant', null, true, 'Pass null for jobs without a tenant, ''*'' for every tenant.');
    delete from jq.tenant_policies t where t.queue = p_queue and t.tenant = coalesce(p_tenant, '');
    get diagnostics v_found = row_count;
    return jq._audited_found('tenant_policy_delete', jsonb_build_object('queue', p_queue, 'tenant', p_tenant), v_found);
end
$$;

--
-- Name: FUNCTION jq_tenant_policy_delete(p_queue text, p_tenant text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_tenant_policy_delete(p_queue text, p_tenant text) IS 'Drop the policy row of (queue or *, tenant or * or null for no tenant); true when one existed. The tenant falls back to weight 1 and no cap (or a less specific row).';

--
-- Name: jq_tenant_policy_set(text, text, integer, integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer DEFAULT NULL::integer, p_max_running integer DEFAULT NULL::integer) RETURNS TABLE(queue text, tenant text, weight integer, max_running integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
begin
    perform jq._check_queue(p_queue, p_wildcard => true);
    perform jq._check_text(p_tenant, 'tenant', 128, true, 'Pass null for jobs without a tenant, ''*'' for every tenant.');
    if p_weight is null and p_max_running is null then
        raise exception 'weight and max_running must not both be null' using errcode = '22004',
            hint = 'To drop a policy, call jq_tenant_policy_delete.';
    elsif p_weight not between 1 and 1000 then
        raise exception 'weight % is out of range', p_weight using errcode = '22023',
            hint = 'A weight is a number of shares between 1 and 1000 (default 1).';
    elsif p_max_running not between 0 and 1000000 then
        raise exception 'max_running % is out of range', p_max_running using errcode = '22023',
            hint = 'max_running is between 0 (paused) and 1000000; null for no cap.';
    end if;
    return query
    insert into jq.tenant_policies as t (queue, tenant, weight, max_running, updated_at)
    values (p_queue, coalesce(p_tenant, ''), p_weight, p_max_running, now())
    on conflict on constraint tenant_policies_pkey do update
       set weight = excluded.weight, max_running = excluded.max_running, updated_at = excluded.updated_at
    returning t.queue, nullif(t.tenant, ''), t.weight, t.max_running;
    perform jq._audit('tenant_policy_set', jsonb_build_object('queue', p_queue, 'tenant', p_tenant, 'weight', p_weight, 'max_running', p_max_running), 1);
end
$$;

--
-- Name: FUNCTION jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer, p_max_running integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer, p_max_running integer) IS 'Set a tenant''s weight (shares, 1..1000) and max_running (cap on running jobs, 0 pauses) in a queue: (queue or *, tenant or * or null for no tenant, weight, max_running) -> the row.';

--
-- Name: jq_tenants(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_tenants(p_queue text DEFAULT NULL::text) RETURNS TABLE(queue text, tenant text, ready bigint, scheduled bigint, running bigint, weight integer, max_running integer, served bigint)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select c.queue, nullif(c.tkey, ''), c.ready, c.scheduled, c.running,
           p.weight, p.max_running, coalesce(l.served, 0)
      from (select j.queue, coalesce(j.tenant, '') as tkey,
                   count(*) filter (where j.status = 'pending' and j.run_at <= (select jq._now())) as ready,
                   count(*) filter (where j.status = 'pending' and j.run_at > (select jq._now())) as scheduled,
                   count(*) filter (where j.status = 'processing') as running
              from jq.jobs j
             where p_queue is null or j.queue = p_queue
             group by 1, 2) c
      cross join lateral jq._tenant_policy(c.queue, c.tkey) p
      left join jq.fair_lanes l on l.queue = c.queue and l.tenant = c.tkey
     order by c.queue, c.tkey
$$;

--
-- Name: FUNCTION jq_tenants(p_queue text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_tenants(p_queue text) IS 'Per (queue, tenant) with live jobs (queue or null for all): ready, scheduled, running, the weight and max_running in force, and jobs served while tenants shared the queue.';

--
-- Name: jq_throughput(timestamp with time zone, interval); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_throughput(p_since timestamp with time zone DEFAULT NULL::timestamp with time zone, p_bucket interval DEFAULT '01:00:00'::interval) RETURNS TABLE(bucket_start timestamp with time zone, succeeded bigint, cancelled bigint, dead bigint, failed_attempts bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_now    timestamptz := jq._now();
    v_since  timestamptz := coalesce(p_since, v_now - interval '1 day');
    v_step   double precision;
    v_first  timestamptz;
begin
    if p_bucket is null or p_bucket < interval '1 second' or p_bucket > interval '31 days' then
        perform jq._raise_bad_argument(
            format('p_bucket must be between 1 second and 31 days, got %s', coalesce(p_bucket::text, 'null')),
            '22023', 'for example interval ''5 minutes'' or ''1 hour''');
    end if;
    if v_since > v_now then
        perform jq._raise_bad_argument(
            format('p_since must not be in the future (now %s, got %s)', v_now, v_since), '22023');
    end if;
    v_step := extract(epoch from p_bucket);
    if (extract(epoch from v_now) - extract(epoch from v_since)) / v_step > 10000 then
        perform jq._raise_bad_argument(
            format('p_since and p_bucket make more than 10000 buckets (%s to %s by %s)', v_since, v_now, p_bucket),
            '22023', 'use a larger p_bucket or a later p_since');
    end if;
    v_first := to_timestamp(floor(extract(epoch from v_since) / v_step) * v_step);

    return query
    with buckets as (
        select b as bucket_start
          from generate_series(v_first, v_now, p_bucket) b
    ), finished as (
        select to_timestamp(floor(extract(epoch from h.finished_at) / v_step) * v_step) as bucket_start,
               count(*) filter (where h.status = 'succeeded') as succeeded,
               count(*) filter (where h.status = 'cancelled') as cancelled,
               coalesce(sum(greatest(h.attempts - 1, 0)) filter (where h.status = 'succeeded'), 0) as failed
          from jq.job_history h
         where h.finished_at >= v_first and h.finished_at <= v_now
         group by 1
    ), buried as (
        select to_timestamp(floor(extract(epoch from d.failed_at) / v_step) * v_step) as bucket_start,
               count(*) as dead,
               sum(d.attempts) as failed
          from jq.dead_jobs d
         where d.failed_at >= v_first and d.failed_at <= v_now
         group by 1
    )
    select b.bucket_start,
           coalesce(f.succeeded, 0)::bigint,
           coalesce(f.cancelled, 0)::bigint,
           coalesce(d.dead, 0)::bigint,
           (coalesce(f.failed, 0) + coalesce(d.failed, 0))::bigint
      from buckets b
      left join finished f on f.bucket_start = b.bucket_start
      left join buried d on d.bucket_start = b.bucket_start
     order by b.bucket_start;
end
$$;

--
-- Name: FUNCTION jq_throughput(p_since timestamp with time zone, p_bucket interval); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_throughput(p_since timestamp with time zone, p_bucket interval) IS 'Jobs finished per time bucket from p_since (default a day ago) to now: (bucket_start, succeeded, cancelled, dead, failed_attempts); every bucket listed. Reads job_history by its partition key finished_at and dead_jobs by failed_at.';

--
-- Name: jq_tick(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_tick() RETURNS TABLE(call_again_after interval, account jsonb)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
declare
    v_settings jq.settings;
    v_rotation record;
    v_account  jsonb;
    v_again    interval;
    v_due      timestamptz;
    v_wait     interval;
    v_fired    integer;
begin
    if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'jq_tick needs READ COMMITTED, not %', current_setting('transaction_isolation')
              using errcode = '25001',
                    hint = 'Call it outside an explicit transaction: a snapshot older than its locks would miss rows it must move.';
    end if;
    v_wait := (pg_sequence_last_value('jq.tick_due'::regclass) - floor(extract(epoch from clock_timestamp()) * 1000))
              * interval '1 millisecond';
    if v_wait > interval '0' then
        return query select v_wait, jsonb_build_object('ran', false);
        return;
    end if;
    select * into v_settings from jq.settings;
    if not pg_try_advisory_xact_lock(hashtext('jq.tick')) then
        return query select v_settings.tick_interval, jsonb_build_object('ran', false);
        return;
    end if;

    -- Schedules first: their firing may take a while, and the rotation's
    -- locks are held until this call commits.
    v_fired := jq.jq_schedules_fire_due(v_settings.schedule_fire_batch);

    select * into v_rotation from jq._storage_rotate(v_settings);
    v_account := v_rotation.account;
    v_again := coalesce(v_rotation.call_again_after, v_settings.maintain_interval);
    if v_fired >= v_settings.schedule_fire_batch then
        v_again := interval '0';  -- more schedules may be due
    end if;
    if v_fired > 0 then
        v_account := v_account || jsonb_build_object('schedule_jobs', v_fired);
    end if;

    -- The maintenance waits for a call that holds no partition lock: claims
    -- would wait for its whole length.
    select t.maintained_at + v_settings.maintain_interval into v_due from jq.tick_state t;
    if v_due is null or v_due <= clock_timestamp() then
        if v_rotation.holding then
            v_again := interval '0';
        else
            v_account := v_account || jsonb_build_object('maintenance', jq.jq_maintain());
            update jq.tick_state t set maintained_at = clock_timestamp();
            v_due := clock_timestamp() + v_settings.maintain_interval;
        end if;
    end if;
    v_again := least(v_again, greatest(interval '0', v_due - clock_timestamp()),
                     (select min(s.next_run_at) - jq._now() from jq.schedules s where s.enabled));  -- least skips a null
    v_again := greatest(v_again, interval '0');
    perform setval('jq.tick_due', floor(extract(epoch from clock_timestamp() + v_again) * 1000)::bigint);

    return query select v_again, v_account || jsonb_build_object('ran', true);
end
$$;

--
-- Name: FUNCTION jq_tick(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_tick() IS 'Does a bounded step of every periodic duty that is due (storage rotation, maintenance, schedules) -> (call_again_after, account of what it did). Call it in a loop from any number of sessions, outside an explicit transaction, sleeping call_again_after between calls.';

--
-- Name: jq_unhandled_types(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_unhandled_types() RETURNS TABLE(queue text, type text, waiting bigint, oldest_waiting_age interval, workers integer)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_unhandled_types(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_unhandled_types() IS 'Job types waiting (ready, or scheduled and due) in a queue whose live workers all registered their types and none handles them -> (queue, type, waiting, oldest_waiting_age, workers); read from a bounded sample of each queue (at most 1,000 ready jobs in claim order).';

--
-- Name: jq_version(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_version() RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
    select r.release from jq.release r
$$;

--
-- Name: FUNCTION jq_version(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_version() IS 'The installed jq release, e.g. 0.5.0.';

--
-- Name: jq_worker_beat(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_worker_beat(p_worker text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
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

--
-- Name: FUNCTION jq_worker_beat(p_worker text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_worker_beat(p_worker text) IS 'A registered worker''s heartbeat (worker), one statement every few seconds -> ok | was_gone (declared gone meanwhile: the jobs it held were requeued) | unknown (register again).';

--
-- Name: jq_worker_deregister(text); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_worker_deregister(p_worker text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_worker_deregister(p_worker text); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_worker_deregister(p_worker text) IS 'Remove a stopping worker''s registration (worker); jobs it still holds are requeued at once. -> the number requeued.';

--
-- Name: jq_worker_register(text, jsonb, text, integer, text, text[]); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_worker_register(p_worker text, p_queues jsonb, p_host text DEFAULT NULL::text, p_pid integer DEFAULT NULL::integer, p_version text DEFAULT NULL::text, p_types text[] DEFAULT NULL::text[]) RETURNS TABLE(worker text, started_at timestamp with time zone, gone_after interval)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]) IS 'Register a starting worker (worker, queues {queue: slots}, host, pid, version, types it handles or null); jobs a previous process of that name held are requeued. -> (worker, started_at, gone_after): beat well within gone_after.';

--
-- Name: jq_workers(); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.jq_workers() RETURNS TABLE(worker text, host text, pid integer, queues jsonb, version text, started_at timestamp with time zone, last_seen timestamp with time zone, state text, running integer, types text[])
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'jq', 'pg_catalog', 'pg_temp'
    SET standard_conforming_strings TO 'on'
    SET constraint_exclusion TO 'off'
    AS $$
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

--
-- Name: FUNCTION jq_workers(); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.jq_workers() IS 'Registered workers -> (worker, host, pid, queues, version, started_at, last_seen, state alive|silent|gone, running jobs, types it handles or null).';

--
-- Name: retry_delay(integer); Type: FUNCTION; Schema: jq
--

CREATE FUNCTION jq.retry_delay(p_attempts integer) RETURNS interval
    LANGUAGE sql
    AS $$
    select make_interval(secs =>
        greatest(1.0, least(3600.0, power(2, least(greatest(p_attempts, 1), 20)) * (0.75 + random() * 0.5))))
$$;

--
-- Name: FUNCTION retry_delay(p_attempts integer); Type: COMMENT; Schema: jq
--

COMMENT ON FUNCTION jq.retry_delay(p_attempts integer) IS 'Retry backoff: delay after failed attempt n, about 2^n s with +-25% jitter, between 1 s and 1 h. Replaceable.';

--
-- Name: audit_log; Type: TABLE; Schema: jq
--

CREATE TABLE jq.audit_log (
    id bigint NOT NULL,
    at timestamp with time zone NOT NULL,
    role text NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    target jsonb DEFAULT '{}'::jsonb NOT NULL,
    rows bigint DEFAULT 0 NOT NULL,
    CONSTRAINT audit_log_action_length CHECK (((char_length(action) >= 1) AND (char_length(action) <= 100))),
    CONSTRAINT audit_log_actor_length CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 255))),
    CONSTRAINT audit_log_rows_range CHECK ((rows >= 0)),
    CONSTRAINT audit_log_target_object CHECK ((jsonb_typeof(target) = 'object'::text))
);

--
-- Name: TABLE audit_log; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.audit_log IS 'Operator actions: when, which database role, the actor it named (jq.actor), what, on which filter or ids, how many rows. Written by jq._audit().';

--
-- Name: audit_log_id_seq; Type: SEQUENCE; Schema: jq
--

ALTER TABLE jq.audit_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME jq.audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: dead_jobs; Type: TABLE; Schema: jq
--

CREATE TABLE jq.dead_jobs (
    id uuid NOT NULL,
    queue text NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    priority smallint NOT NULL,
    run_at timestamp with time zone NOT NULL,
    attempts smallint NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text NOT NULL,
    error_fingerprint text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    failed_at timestamp with time zone NOT NULL,
    concurrency_key text,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    CONSTRAINT dead_jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT dead_jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT dead_jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT dead_jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT dead_jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT dead_jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT dead_jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
);

--
-- Name: TABLE dead_jobs; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.dead_jobs IS 'Jobs that used up their attempts or were discarded; grouped by jq_dead_groups, requeued by jq_retry_dead.';

--
-- Name: fair_lanes; Type: TABLE; Schema: jq
--

CREATE TABLE jq.fair_lanes (
    queue text NOT NULL,
    tenant text NOT NULL,
    pass double precision NOT NULL,
    last_share double precision NOT NULL,
    served bigint NOT NULL,
    updated_at timestamp with time zone NOT NULL
)
WITH (fillfactor='50', autovacuum_vacuum_scale_factor='0.0', autovacuum_vacuum_threshold='1000');

--
-- Name: TABLE fair_lanes; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.fair_lanes IS 'Per (queue, tenant) virtual time of the service a tenant had (pass: +1/weight per claimed job); jq_claim serves the tenant with the lowest pass first. Idle lanes are purged by jq_maintain.';

--
-- Name: idempotency_keys; Type: TABLE; Schema: jq
--

CREATE TABLE jq.idempotency_keys (
    queue text NOT NULL,
    idempotency_key text NOT NULL,
    job_id uuid NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

--
-- Name: TABLE idempotency_keys; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.idempotency_keys IS 'Dedupe store: a key maps to its job while the job is live and for settings.idempotency_window after it finished.';

--
-- Name: job_history; Type: TABLE; Schema: jq
--

CREATE TABLE jq.job_history (
    id uuid NOT NULL,
    queue text NOT NULL,
    type text NOT NULL,
    tenant text,
    status text NOT NULL,
    attempts smallint NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    last_error text,
    run_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    result jsonb,
    metadata jsonb,
    CONSTRAINT job_history_status_valid CHECK ((status = ANY (ARRAY['succeeded'::text, 'cancelled'::text])))
)
PARTITION BY RANGE (finished_at);

--
-- Name: TABLE job_history; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.job_history IS 'Append-only record of finished jobs, one partition per UTC day, rotated by jq_maintain.';

--
-- Name: COLUMN job_history.result; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.job_history.result IS 'What the handler returned (jq_complete''s p_results), null when it returned nothing.';

--
-- Name: job_history_default; Type: TABLE; Schema: jq
--

CREATE TABLE jq.job_history_default (
    id uuid NOT NULL,
    queue text NOT NULL,
    type text NOT NULL,
    tenant text,
    status text NOT NULL,
    attempts smallint NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    last_error text,
    run_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    result jsonb,
    metadata jsonb,
    CONSTRAINT job_history_status_valid CHECK ((status = ANY (ARRAY['succeeded'::text, 'cancelled'::text])))
);

--
-- Name: storage_turns; Type: SEQUENCE; Schema: jq
--

CREATE SEQUENCE jq.storage_turns
    START WITH 0
    INCREMENT BY 1
    MINVALUE 0
    NO MAXVALUE
    CACHE 1;

--
-- Name: SEQUENCE storage_turns; Type: COMMENT; Schema: jq
--

COMMENT ON SEQUENCE jq.storage_turns IS 'How many times jq_tick made the next generation current; jq._storage_generation takes it modulo 3.';

--
-- Name: jobs; Type: TABLE; Schema: jq
--

CREATE TABLE jq.jobs (
    id uuid NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    run_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    locked_until timestamp with time zone,
    locked_by text,
    attempts smallint DEFAULT 0 NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    concurrency_key text,
    deferred boolean DEFAULT false NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL,
    CONSTRAINT jobs_attempts_range CHECK (((attempts >= 0) AND (attempts <= max_attempts))),
    CONSTRAINT jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT jobs_lease_consistent CHECK ((((status = 'processing'::text) = (locked_by IS NOT NULL)) AND ((status = 'processing'::text) = (locked_until IS NOT NULL)))),
    CONSTRAINT jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT jobs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT jobs_orphaned_range CHECK (((orphaned >= 0) AND (orphaned <= 1000))),
    CONSTRAINT jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT jobs_status_valid CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text]))),
    CONSTRAINT jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
)
PARTITION BY LIST (generation);

--
-- Name: TABLE jobs; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.jobs IS 'Live jobs only (pending or processing), in generations (jobs_g0..g2, jobs_waiting) that jq_tick truncates: read it through the jq_* functions, a snapshot older than a truncation misses rows.';

--
-- Name: COLUMN jobs.metadata; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.jobs.metadata IS 'Headers of the job (an object of strings), e.g. the W3C trace context: traceparent, tracestate. Null when none.';

--
-- Name: COLUMN jobs.generation; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.jobs.generation IS 'Where the row is stored: 0..2 the generation current when it was written (jq._storage_generation), 3 jobs_waiting (due later than settings.waiting_horizon). Storage only: no rule reads it.';

--
-- Name: jobs_g0; Type: TABLE; Schema: jq
--

CREATE TABLE jq.jobs_g0 (
    id uuid NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    run_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    locked_until timestamp with time zone,
    locked_by text,
    attempts smallint DEFAULT 0 NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    concurrency_key text,
    deferred boolean DEFAULT false NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL,
    CONSTRAINT jobs_attempts_range CHECK (((attempts >= 0) AND (attempts <= max_attempts))),
    CONSTRAINT jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT jobs_lease_consistent CHECK ((((status = 'processing'::text) = (locked_by IS NOT NULL)) AND ((status = 'processing'::text) = (locked_until IS NOT NULL)))),
    CONSTRAINT jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT jobs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT jobs_orphaned_range CHECK (((orphaned >= 0) AND (orphaned <= 1000))),
    CONSTRAINT jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT jobs_status_valid CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text]))),
    CONSTRAINT jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
)
WITH (fillfactor='80', autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='2000', autovacuum_vacuum_insert_scale_factor='0', autovacuum_vacuum_insert_threshold='5000', autovacuum_analyze_scale_factor='0', autovacuum_analyze_threshold='5000', autovacuum_vacuum_cost_delay='0');

--
-- Name: jobs_g1; Type: TABLE; Schema: jq
--

CREATE TABLE jq.jobs_g1 (
    id uuid NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    run_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    locked_until timestamp with time zone,
    locked_by text,
    attempts smallint DEFAULT 0 NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    concurrency_key text,
    deferred boolean DEFAULT false NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL,
    CONSTRAINT jobs_attempts_range CHECK (((attempts >= 0) AND (attempts <= max_attempts))),
    CONSTRAINT jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT jobs_lease_consistent CHECK ((((status = 'processing'::text) = (locked_by IS NOT NULL)) AND ((status = 'processing'::text) = (locked_until IS NOT NULL)))),
    CONSTRAINT jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT jobs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT jobs_orphaned_range CHECK (((orphaned >= 0) AND (orphaned <= 1000))),
    CONSTRAINT jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT jobs_status_valid CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text]))),
    CONSTRAINT jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
)
WITH (fillfactor='80', autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='2000', autovacuum_vacuum_insert_scale_factor='0', autovacuum_vacuum_insert_threshold='5000', autovacuum_analyze_scale_factor='0', autovacuum_analyze_threshold='5000', autovacuum_vacuum_cost_delay='0');

--
-- Name: jobs_g2; Type: TABLE; Schema: jq
--

CREATE TABLE jq.jobs_g2 (
    id uuid NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    run_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    locked_until timestamp with time zone,
    locked_by text,
    attempts smallint DEFAULT 0 NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    concurrency_key text,
    deferred boolean DEFAULT false NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL,
    CONSTRAINT jobs_attempts_range CHECK (((attempts >= 0) AND (attempts <= max_attempts))),
    CONSTRAINT jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT jobs_lease_consistent CHECK ((((status = 'processing'::text) = (locked_by IS NOT NULL)) AND ((status = 'processing'::text) = (locked_until IS NOT NULL)))),
    CONSTRAINT jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT jobs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT jobs_orphaned_range CHECK (((orphaned >= 0) AND (orphaned <= 1000))),
    CONSTRAINT jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT jobs_status_valid CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text]))),
    CONSTRAINT jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
)
WITH (fillfactor='80', autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='2000', autovacuum_vacuum_insert_scale_factor='0', autovacuum_vacuum_insert_threshold='5000', autovacuum_analyze_scale_factor='0', autovacuum_analyze_threshold='5000', autovacuum_vacuum_cost_delay='0');

--
-- Name: jobs_waiting; Type: TABLE; Schema: jq
--

CREATE TABLE jq.jobs_waiting (
    id uuid NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    run_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    locked_until timestamp with time zone,
    locked_by text,
    attempts smallint DEFAULT 0 NOT NULL,
    max_attempts smallint NOT NULL,
    idempotency_key text,
    tenant text,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    cancel_requested boolean DEFAULT false NOT NULL,
    concurrency_key text,
    deferred boolean DEFAULT false NOT NULL,
    orphaned smallint DEFAULT 0 NOT NULL,
    attempt_log jsonb,
    metadata jsonb,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL,
    CONSTRAINT jobs_attempts_range CHECK (((attempts >= 0) AND (attempts <= max_attempts))),
    CONSTRAINT jobs_concurrency_key_length CHECK (((char_length(concurrency_key) >= 1) AND (char_length(concurrency_key) <= 255))),
    CONSTRAINT jobs_idempotency_key_length CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT jobs_lease_consistent CHECK ((((status = 'processing'::text) = (locked_by IS NOT NULL)) AND ((status = 'processing'::text) = (locked_until IS NOT NULL)))),
    CONSTRAINT jobs_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT jobs_metadata_object CHECK ((jsonb_typeof(metadata) = 'object'::text)),
    CONSTRAINT jobs_orphaned_range CHECK (((orphaned >= 0) AND (orphaned <= 1000))),
    CONSTRAINT jobs_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT jobs_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT jobs_status_valid CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text]))),
    CONSTRAINT jobs_tenant_length CHECK (((char_length(tenant) >= 1) AND (char_length(tenant) <= 128))),
    CONSTRAINT jobs_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
)
WITH (fillfactor='80', autovacuum_vacuum_scale_factor='0', autovacuum_vacuum_threshold='2000', autovacuum_vacuum_insert_scale_factor='0', autovacuum_vacuum_insert_threshold='5000', autovacuum_analyze_scale_factor='0', autovacuum_analyze_threshold='5000', autovacuum_vacuum_cost_delay='0');

--
-- Name: TABLE jobs_waiting; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.jobs_waiting IS 'Jobs due later than settings.waiting_horizon, out of the generations'' way; jq_tick moves them back when they come within it.';

--
-- Name: key_limits; Type: TABLE; Schema: jq
--

CREATE TABLE jq.key_limits (
    type text NOT NULL,
    max_running integer NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT key_limits_max_running_range CHECK (((max_running >= 1) AND (max_running <= 1000000))),
    CONSTRAINT key_limits_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
);

--
-- Name: TABLE key_limits; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.key_limits IS 'Per job type: how many jobs sharing one concurrency_key may run at once (1 when the type has no row). Written by jq_key_limit_set.';

--
-- Name: migrations; Type: TABLE; Schema: jq
--

CREATE TABLE jq.migrations (
    version integer NOT NULL,
    release text NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: TABLE migrations; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.migrations IS 'Ledger of applied jq schema migrations; the highest release is jq_version().';

--
-- Name: queue_pauses; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_pauses (
    queue text NOT NULL,
    type text,
    paused_at timestamp with time zone NOT NULL,
    paused_by text NOT NULL,
    CONSTRAINT queue_pauses_paused_by_length CHECK (((char_length(paused_by) >= 1) AND (char_length(paused_by) <= 255))),
    CONSTRAINT queue_pauses_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT queue_pauses_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
);

--
-- Name: TABLE queue_pauses; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.queue_pauses IS 'Paused queues (type null: the whole queue) and paused (queue, type) pairs; jq_claim skips them. Written by jq_queue_pause / jq_queue_resume.';

--
-- Name: queue_settings; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_settings (
    queue text NOT NULL,
    fair boolean DEFAULT true NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT queue_settings_queue_format CHECK (jq._is_queue_name(queue))
);

--
-- Name: TABLE queue_settings; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.queue_settings IS 'Per queue: fair (tenants take turns, the default) or plain FIFO claiming. Written by jq_queue_set_fair.';

--
-- Name: queue_waiters; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_waiters (
    queue text NOT NULL,
    worker text NOT NULL,
    backend_pid integer NOT NULL,
    since timestamp with time zone NOT NULL,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL
)
PARTITION BY LIST (generation);

--
-- Name: TABLE queue_waiters; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.queue_waiters IS 'Workers waiting for work on a queue (jq_set_waiting); the NOTIFY trigger wakes only these queues.';

--
-- Name: COLUMN queue_waiters.generation; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.queue_waiters.generation IS 'Where the mark is stored, as jq.jobs.generation; jq_tick moves marks out of a generation and truncates it. Storage only: no rule reads it.';

--
-- Name: queue_waiters_g0; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_waiters_g0 (
    queue text NOT NULL,
    worker text NOT NULL,
    backend_pid integer NOT NULL,
    since timestamp with time zone NOT NULL,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL
);

--
-- Name: queue_waiters_g1; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_waiters_g1 (
    queue text NOT NULL,
    worker text NOT NULL,
    backend_pid integer NOT NULL,
    since timestamp with time zone NOT NULL,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL
);

--
-- Name: queue_waiters_g2; Type: TABLE; Schema: jq
--

CREATE TABLE jq.queue_waiters_g2 (
    queue text NOT NULL,
    worker text NOT NULL,
    backend_pid integer NOT NULL,
    since timestamp with time zone NOT NULL,
    generation smallint DEFAULT jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass)) NOT NULL
);

--
-- Name: release; Type: TABLE; Schema: jq
--

CREATE TABLE jq.release (
    singleton boolean DEFAULT true NOT NULL,
    release text NOT NULL,
    installed_at timestamp with time zone NOT NULL,
    CONSTRAINT release_singleton CHECK (singleton)
);

--
-- Name: TABLE release; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.release IS 'The installed jq release (jq_version()) and when it was installed; written by the installer.';

--
-- Name: schedules; Type: TABLE; Schema: jq
--

CREATE TABLE jq.schedules (
    name text NOT NULL,
    cron text NOT NULL,
    timezone text DEFAULT 'UTC'::text NOT NULL,
    type text NOT NULL,
    payload jsonb DEFAULT '{}'::jsonb NOT NULL,
    queue text DEFAULT 'default'::text NOT NULL,
    priority smallint DEFAULT 0 NOT NULL,
    max_attempts smallint,
    jitter_seconds integer DEFAULT 0 NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    next_run_at timestamp with time zone,
    last_slot_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    missed text DEFAULT 'latest'::text NOT NULL,
    CONSTRAINT schedules_cron_length CHECK (((char_length(cron) >= 1) AND (char_length(cron) <= 255))),
    CONSTRAINT schedules_jitter_range CHECK (((jitter_seconds >= 0) AND (jitter_seconds <= 86400))),
    CONSTRAINT schedules_max_attempts_range CHECK (((max_attempts >= 1) AND (max_attempts <= 1000))),
    CONSTRAINT schedules_missed_valid CHECK ((missed = ANY (ARRAY['latest'::text, 'all'::text, 'none'::text]))),
    CONSTRAINT schedules_name_length CHECK (((char_length(name) >= 1) AND (char_length(name) <= 128))),
    CONSTRAINT schedules_payload_object CHECK ((jsonb_typeof(payload) = 'object'::text)),
    CONSTRAINT schedules_queue_format CHECK (jq._is_queue_name(queue)),
    CONSTRAINT schedules_timezone_length CHECK (((char_length(timezone) >= 1) AND (char_length(timezone) <= 64))),
    CONSTRAINT schedules_type_length CHECK (((char_length(type) >= 1) AND (char_length(type) <= 128)))
);

--
-- Name: TABLE schedules; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.schedules IS 'Cron schedules in a named timezone with jitter; each slot enqueues one job (jq_schedule_put, jq_schedules_due, jq_schedules_fire).';

--
-- Name: storage_generations; Type: TABLE; Schema: jq
--

CREATE TABLE jq.storage_generations (
    generation smallint NOT NULL,
    current_since timestamp with time zone DEFAULT now() NOT NULL,
    truncated_at timestamp with time zone,
    truncations bigint DEFAULT 0 NOT NULL,
    moved bigint DEFAULT 0 NOT NULL,
    marks_truncated_at timestamp with time zone,
    marks_truncations bigint DEFAULT 0 NOT NULL,
    marks_moved bigint DEFAULT 0 NOT NULL,
    taken bigint,
    taken_at timestamp with time zone,
    CONSTRAINT storage_generations_valid CHECK (((generation >= 0) AND (generation <= 2)))
);

--
-- Name: TABLE storage_generations; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.storage_generations IS 'One row per generation of jq.jobs and jq.queue_waiters: since when it is (or last was) current, when jq_tick last truncated each of its partitions, how many times, how many live rows it moved out first, and (while it holds a backlog) how many rows the claims had taken from it by the statistics and when that last grew.';

--
-- Name: tenant_policies; Type: TABLE; Schema: jq
--

CREATE TABLE jq.tenant_policies (
    queue text NOT NULL,
    tenant text NOT NULL,
    weight integer,
    max_running integer,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT tenant_policies_max_running_range CHECK (((max_running >= 0) AND (max_running <= 1000000))),
    CONSTRAINT tenant_policies_not_empty CHECK (((weight IS NOT NULL) OR (max_running IS NOT NULL))),
    CONSTRAINT tenant_policies_queue_format CHECK (((queue = '*'::text) OR jq._is_queue_name(queue))),
    CONSTRAINT tenant_policies_tenant_length CHECK ((char_length(tenant) <= 128)),
    CONSTRAINT tenant_policies_weight_range CHECK (((weight >= 1) AND (weight <= 1000)))
);

--
-- Name: TABLE tenant_policies; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.tenant_policies IS 'Optional per-tenant weight (shares of a queue) and max_running (cap on running jobs) per (queue, tenant); queue or tenant ''*'' is the default for any; tenant '''' is jobs without a tenant. Written by jq_tenant_policy_set.';

--
-- Name: tick_due; Type: SEQUENCE; Schema: jq
--

CREATE SEQUENCE jq.tick_due
    START WITH 0
    INCREMENT BY 1
    MINVALUE 0
    NO MAXVALUE
    CACHE 1;

--
-- Name: SEQUENCE tick_due; Type: COMMENT; Schema: jq
--

COMMENT ON SEQUENCE jq.tick_due IS 'When the next jq_tick is due, in milliseconds since the epoch: a call before then is answered at once. A sequence, so that setting it leaves no dead row version.';

--
-- Name: tick_state; Type: TABLE; Schema: jq
--

CREATE TABLE jq.tick_state (
    singleton boolean DEFAULT true NOT NULL,
    maintained_at timestamp with time zone,
    CONSTRAINT tick_state_singleton CHECK (singleton)
);

--
-- Name: TABLE tick_state; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.tick_state IS 'When jq_tick last ran the maintenance (settings.maintain_interval).';

--
-- Name: timezone_names; Type: TABLE; Schema: jq
--

CREATE TABLE jq.timezone_names (
    name text NOT NULL
);

--
-- Name: TABLE timezone_names; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.timezone_names IS 'Cache of IANA time zone names found in pg_timezone_names by jq_schedule_put (reading that view takes ~50 ms).';

--
-- Name: workers; Type: TABLE; Schema: jq
--

CREATE TABLE jq.workers (
    name text NOT NULL,
    host text NOT NULL,
    pid integer NOT NULL,
    queues jsonb NOT NULL,
    version text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    last_seen timestamp with time zone NOT NULL,
    gone_at timestamp with time zone,
    types text[],
    CONSTRAINT workers_host_length CHECK (((char_length(host) >= 1) AND (char_length(host) <= 255))),
    CONSTRAINT workers_name_length CHECK (((char_length(name) >= 1) AND (char_length(name) <= 255))),
    CONSTRAINT workers_queues_object CHECK ((jsonb_typeof(queues) = 'object'::text)),
    CONSTRAINT workers_types_size CHECK ((cardinality(types) <= 10000)),
    CONSTRAINT workers_version_length CHECK (((char_length(version) >= 1) AND (char_length(version) <= 64)))
);

--
-- Name: TABLE workers; Type: COMMENT; Schema: jq
--

COMMENT ON TABLE jq.workers IS 'Registered workers (jq_worker_register) and their last heartbeat (jq_worker_beat); a worker silent for settings.worker_gone_after is declared gone and its jobs requeued.';

--
-- Name: COLUMN workers.types; Type: COMMENT; Schema: jq
--

COMMENT ON COLUMN jq.workers.types IS 'The job types the worker handles, as it registered them; null: it did not say (it may handle any type).';

--
-- Name: job_history_default; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.job_history ATTACH PARTITION jq.job_history_default DEFAULT;

--
-- Name: jobs_g0; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.jobs ATTACH PARTITION jq.jobs_g0 FOR VALUES IN ('0');

--
-- Name: jobs_g1; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.jobs ATTACH PARTITION jq.jobs_g1 FOR VALUES IN ('1');

--
-- Name: jobs_g2; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.jobs ATTACH PARTITION jq.jobs_g2 FOR VALUES IN ('2');

--
-- Name: jobs_waiting; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.jobs ATTACH PARTITION jq.jobs_waiting FOR VALUES IN ('3');

--
-- Name: queue_waiters_g0; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters ATTACH PARTITION jq.queue_waiters_g0 FOR VALUES IN ('0');

--
-- Name: queue_waiters_g1; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters ATTACH PARTITION jq.queue_waiters_g1 FOR VALUES IN ('1');

--
-- Name: queue_waiters_g2; Type: TABLE ATTACH; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters ATTACH PARTITION jq.queue_waiters_g2 FOR VALUES IN ('2');

--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

--
-- Name: dead_jobs dead_jobs_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.dead_jobs
    ADD CONSTRAINT dead_jobs_pkey PRIMARY KEY (id);

--
-- Name: fair_lanes fair_lanes_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.fair_lanes
    ADD CONSTRAINT fair_lanes_pkey PRIMARY KEY (queue, tenant);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (queue, idempotency_key);

--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id, generation);

--
-- Name: jobs_g0 jobs_g0_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.jobs_g0
    ADD CONSTRAINT jobs_g0_pkey PRIMARY KEY (id, generation);

--
-- Name: jobs_g1 jobs_g1_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.jobs_g1
    ADD CONSTRAINT jobs_g1_pkey PRIMARY KEY (id, generation);

--
-- Name: jobs_g2 jobs_g2_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.jobs_g2
    ADD CONSTRAINT jobs_g2_pkey PRIMARY KEY (id, generation);

--
-- Name: jobs_waiting jobs_waiting_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.jobs_waiting
    ADD CONSTRAINT jobs_waiting_pkey PRIMARY KEY (id, generation);

--
-- Name: key_limits key_limits_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.key_limits
    ADD CONSTRAINT key_limits_pkey PRIMARY KEY (type);

--
-- Name: migrations migrations_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (version);

--
-- Name: queue_settings queue_settings_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.queue_settings
    ADD CONSTRAINT queue_settings_pkey PRIMARY KEY (queue);

--
-- Name: queue_waiters queue_waiters_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters
    ADD CONSTRAINT queue_waiters_pkey PRIMARY KEY (queue, worker, generation);

--
-- Name: queue_waiters_g0 queue_waiters_g0_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters_g0
    ADD CONSTRAINT queue_waiters_g0_pkey PRIMARY KEY (queue, worker, generation);

--
-- Name: queue_waiters_g1 queue_waiters_g1_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters_g1
    ADD CONSTRAINT queue_waiters_g1_pkey PRIMARY KEY (queue, worker, generation);

--
-- Name: queue_waiters_g2 queue_waiters_g2_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.queue_waiters_g2
    ADD CONSTRAINT queue_waiters_g2_pkey PRIMARY KEY (queue, worker, generation);

--
-- Name: release release_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.release
    ADD CONSTRAINT release_pkey PRIMARY KEY (singleton);

--
-- Name: schedules schedules_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.schedules
    ADD CONSTRAINT schedules_pkey PRIMARY KEY (name);

--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (singleton);

--
-- Name: storage_generations storage_generations_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.storage_generations
    ADD CONSTRAINT storage_generations_pkey PRIMARY KEY (generation);

--
-- Name: tenant_policies tenant_policies_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.tenant_policies
    ADD CONSTRAINT tenant_policies_pkey PRIMARY KEY (queue, tenant);

--
-- Name: tick_state tick_state_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.tick_state
    ADD CONSTRAINT tick_state_pkey PRIMARY KEY (singleton);

--
-- Name: timezone_names timezone_names_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.timezone_names
    ADD CONSTRAINT timezone_names_pkey PRIMARY KEY (name);

--
-- Name: workers workers_pkey; Type: CONSTRAINT; Schema: jq
--

ALTER TABLE ONLY jq.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (name);

--
-- Name: audit_log_at_idx; Type: INDEX; Schema: jq
--

CREATE INDEX audit_log_at_idx ON jq.audit_log USING btree (at, id);

--
-- Name: dead_jobs_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX dead_jobs_created_idx ON jq.dead_jobs USING btree (created_at, id);

--
-- Name: dead_jobs_failed_at_idx; Type: INDEX; Schema: jq
--

CREATE INDEX dead_jobs_failed_at_idx ON jq.dead_jobs USING btree (failed_at);

--
-- Name: dead_jobs_group_idx; Type: INDEX; Schema: jq
--

CREATE INDEX dead_jobs_group_idx ON jq.dead_jobs USING btree (type, error_fingerprint, failed_at);

--
-- Name: dead_jobs_payload_idx; Type: INDEX; Schema: jq
--

CREATE INDEX dead_jobs_payload_idx ON jq.dead_jobs USING gin (payload jsonb_path_ops);

--
-- Name: dead_jobs_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX dead_jobs_tenant_created_idx ON jq.dead_jobs USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: idempotency_keys_expires_idx; Type: INDEX; Schema: jq
--

CREATE INDEX idempotency_keys_expires_idx ON jq.idempotency_keys USING btree (expires_at);

--
-- Name: job_history_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_created_idx ON ONLY jq.job_history USING btree (created_at, id);

--
-- Name: job_history_default_created_at_id_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_default_created_at_id_idx ON jq.job_history_default USING btree (created_at, id);

--
-- Name: job_history_id_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_id_idx ON ONLY jq.job_history USING btree (id);

--
-- Name: job_history_default_id_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_default_id_idx ON jq.job_history_default USING btree (id);

--
-- Name: job_history_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_tenant_created_idx ON ONLY jq.job_history USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: job_history_default_tenant_created_at_id_idx; Type: INDEX; Schema: jq
--

CREATE INDEX job_history_default_tenant_created_at_id_idx ON jq.job_history_default USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: jobs_claim_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_claim_idx ON ONLY jq.jobs USING btree (queue, priority DESC, COALESCE(tenant, ''::text), run_at) WHERE ((status = 'pending'::text) AND (NOT deferred));

--
-- Name: jobs_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_created_idx ON ONLY jq.jobs USING btree (created_at, id);

--
-- Name: jobs_deferred_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_deferred_idx ON ONLY jq.jobs USING btree (queue, priority DESC, run_at) WHERE ((status = 'pending'::text) AND deferred);

--
-- Name: jobs_g0_claim_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_claim_idx ON jq.jobs_g0 USING btree (queue, priority DESC, COALESCE(tenant, ''::text), run_at) WHERE ((status = 'pending'::text) AND (NOT deferred));

--
-- Name: jobs_g0_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_created_idx ON jq.jobs_g0 USING btree (created_at, id);

--
-- Name: jobs_g0_deferred_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_deferred_idx ON jq.jobs_g0 USING btree (queue, priority DESC, run_at) WHERE ((status = 'pending'::text) AND deferred);

--
-- Name: jobs_lease_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_lease_idx ON ONLY jq.jobs USING btree (queue, locked_until) WHERE (status = 'processing'::text);

--
-- Name: jobs_g0_lease_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_lease_idx ON jq.jobs_g0 USING btree (queue, locked_until) WHERE (status = 'processing'::text);

--
-- Name: jobs_locked_by_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_locked_by_idx ON ONLY jq.jobs USING btree (locked_by, orphaned DESC) WHERE (status = 'processing'::text);

--
-- Name: jobs_g0_locked_by_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_locked_by_idx ON jq.jobs_g0 USING btree (locked_by, orphaned DESC) WHERE (status = 'processing'::text);

--
-- Name: jobs_running_key_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_running_key_idx ON ONLY jq.jobs USING btree (type, concurrency_key) WHERE ((status = 'processing'::text) AND (concurrency_key IS NOT NULL));

--
-- Name: jobs_g0_running_key_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_running_key_idx ON jq.jobs_g0 USING btree (type, concurrency_key) WHERE ((status = 'processing'::text) AND (concurrency_key IS NOT NULL));

--
-- Name: jobs_running_tenant_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_running_tenant_idx ON ONLY jq.jobs USING btree (queue, tenant) WHERE ((status = 'processing'::text) AND (tenant IS NOT NULL));

--
-- Name: jobs_g0_running_tenant_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_running_tenant_idx ON jq.jobs_g0 USING btree (queue, tenant) WHERE ((status = 'processing'::text) AND (tenant IS NOT NULL));

--
-- Name: jobs_suspect_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_suspect_idx ON ONLY jq.jobs USING btree (queue, run_at) WHERE ((status = 'pending'::text) AND (orphaned >= 2));

--
-- Name: jobs_g0_suspect_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_suspect_idx ON jq.jobs_g0 USING btree (queue, run_at) WHERE ((status = 'pending'::text) AND (orphaned >= 2));

--
-- Name: jobs_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_tenant_created_idx ON ONLY jq.jobs USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: jobs_g0_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g0_tenant_created_idx ON jq.jobs_g0 USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: jobs_g1_claim_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_claim_idx ON jq.jobs_g1 USING btree (queue, priority DESC, COALESCE(tenant, ''::text), run_at) WHERE ((status = 'pending'::text) AND (NOT deferred));

--
-- Name: jobs_g1_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_created_idx ON jq.jobs_g1 USING btree (created_at, id);

--
-- Name: jobs_g1_deferred_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_deferred_idx ON jq.jobs_g1 USING btree (queue, priority DESC, run_at) WHERE ((status = 'pending'::text) AND deferred);

--
-- Name: jobs_g1_lease_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_lease_idx ON jq.jobs_g1 USING btree (queue, locked_until) WHERE (status = 'processing'::text);

--
-- Name: jobs_g1_locked_by_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_locked_by_idx ON jq.jobs_g1 USING btree (locked_by, orphaned DESC) WHERE (status = 'processing'::text);

--
-- Name: jobs_g1_running_key_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_running_key_idx ON jq.jobs_g1 USING btree (type, concurrency_key) WHERE ((status = 'processing'::text) AND (concurrency_key IS NOT NULL));

--
-- Name: jobs_g1_running_tenant_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_running_tenant_idx ON jq.jobs_g1 USING btree (queue, tenant) WHERE ((status = 'processing'::text) AND (tenant IS NOT NULL));

--
-- Name: jobs_g1_suspect_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_suspect_idx ON jq.jobs_g1 USING btree (queue, run_at) WHERE ((status = 'pending'::text) AND (orphaned >= 2));

--
-- Name: jobs_g1_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g1_tenant_created_idx ON jq.jobs_g1 USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: jobs_g2_claim_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_claim_idx ON jq.jobs_g2 USING btree (queue, priority DESC, COALESCE(tenant, ''::text), run_at) WHERE ((status = 'pending'::text) AND (NOT deferred));

--
-- Name: jobs_g2_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_created_idx ON jq.jobs_g2 USING btree (created_at, id);

--
-- Name: jobs_g2_deferred_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_deferred_idx ON jq.jobs_g2 USING btree (queue, priority DESC, run_at) WHERE ((status = 'pending'::text) AND deferred);

--
-- Name: jobs_g2_lease_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_lease_idx ON jq.jobs_g2 USING btree (queue, locked_until) WHERE (status = 'processing'::text);

--
-- Name: jobs_g2_locked_by_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_locked_by_idx ON jq.jobs_g2 USING btree (locked_by, orphaned DESC) WHERE (status = 'processing'::text);

--
-- Name: jobs_g2_running_key_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_running_key_idx ON jq.jobs_g2 USING btree (type, concurrency_key) WHERE ((status = 'processing'::text) AND (concurrency_key IS NOT NULL));

--
-- Name: jobs_g2_running_tenant_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_running_tenant_idx ON jq.jobs_g2 USING btree (queue, tenant) WHERE ((status = 'processing'::text) AND (tenant IS NOT NULL));

--
-- Name: jobs_g2_suspect_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_suspect_idx ON jq.jobs_g2 USING btree (queue, run_at) WHERE ((status = 'pending'::text) AND (orphaned >= 2));

--
-- Name: jobs_g2_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_g2_tenant_created_idx ON jq.jobs_g2 USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: jobs_waiting_claim_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_claim_idx ON jq.jobs_waiting USING btree (queue, priority DESC, COALESCE(tenant, ''::text), run_at) WHERE ((status = 'pending'::text) AND (NOT deferred));

--
-- Name: jobs_waiting_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_created_idx ON jq.jobs_waiting USING btree (created_at, id);

--
-- Name: jobs_waiting_deferred_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_deferred_idx ON jq.jobs_waiting USING btree (queue, priority DESC, run_at) WHERE ((status = 'pending'::text) AND deferred);

--
-- Name: jobs_waiting_due_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_due_idx ON jq.jobs_waiting USING btree (run_at);

--
-- Name: jobs_waiting_lease_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_lease_idx ON jq.jobs_waiting USING btree (queue, locked_until) WHERE (status = 'processing'::text);

--
-- Name: jobs_waiting_locked_by_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_locked_by_idx ON jq.jobs_waiting USING btree (locked_by, orphaned DESC) WHERE (status = 'processing'::text);

--
-- Name: jobs_waiting_running_key_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_running_key_idx ON jq.jobs_waiting USING btree (type, concurrency_key) WHERE ((status = 'processing'::text) AND (concurrency_key IS NOT NULL));

--
-- Name: jobs_waiting_running_tenant_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_running_tenant_idx ON jq.jobs_waiting USING btree (queue, tenant) WHERE ((status = 'processing'::text) AND (tenant IS NOT NULL));

--
-- Name: jobs_waiting_suspect_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_suspect_idx ON jq.jobs_waiting USING btree (queue, run_at) WHERE ((status = 'pending'::text) AND (orphaned >= 2));

--
-- Name: jobs_waiting_tenant_created_idx; Type: INDEX; Schema: jq
--

CREATE INDEX jobs_waiting_tenant_created_idx ON jq.jobs_waiting USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL);

--
-- Name: queue_pauses_key_idx; Type: INDEX; Schema: jq
--

CREATE UNIQUE INDEX queue_pauses_key_idx ON jq.queue_pauses USING btree (queue, COALESCE(type, ''::text));

--
-- Name: schedules_due_idx; Type: INDEX; Schema: jq
--

CREATE INDEX schedules_due_idx ON jq.schedules USING btree (next_run_at) WHERE enabled;

--
-- Name: workers_last_seen_idx; Type: INDEX; Schema: jq
--

CREATE INDEX workers_last_seen_idx ON jq.workers USING btree (last_seen) WHERE (gone_at IS NULL);

--
-- Name: job_history_default_created_at_id_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.job_history_created_idx ATTACH PARTITION jq.job_history_default_created_at_id_idx;

--
-- Name: job_history_default_id_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.job_history_id_idx ATTACH PARTITION jq.job_history_default_id_idx;

--
-- Name: job_history_default_tenant_created_at_id_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.job_history_tenant_created_idx ATTACH PARTITION jq.job_history_default_tenant_created_at_id_idx;

--
-- Name: jobs_g0_claim_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_claim_idx ATTACH PARTITION jq.jobs_g0_claim_idx;

--
-- Name: jobs_g0_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_created_idx ATTACH PARTITION jq.jobs_g0_created_idx;

--
-- Name: jobs_g0_deferred_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_deferred_idx ATTACH PARTITION jq.jobs_g0_deferred_idx;

--
-- Name: jobs_g0_lease_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_lease_idx ATTACH PARTITION jq.jobs_g0_lease_idx;

--
-- Name: jobs_g0_locked_by_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_locked_by_idx ATTACH PARTITION jq.jobs_g0_locked_by_idx;

--
-- Name: jobs_g0_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_pkey ATTACH PARTITION jq.jobs_g0_pkey;

--
-- Name: jobs_g0_running_key_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_key_idx ATTACH PARTITION jq.jobs_g0_running_key_idx;

--
-- Name: jobs_g0_running_tenant_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_tenant_idx ATTACH PARTITION jq.jobs_g0_running_tenant_idx;

--
-- Name: jobs_g0_suspect_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_suspect_idx ATTACH PARTITION jq.jobs_g0_suspect_idx;

--
-- Name: jobs_g0_tenant_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_tenant_created_idx ATTACH PARTITION jq.jobs_g0_tenant_created_idx;

--
-- Name: jobs_g1_claim_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_claim_idx ATTACH PARTITION jq.jobs_g1_claim_idx;

--
-- Name: jobs_g1_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_created_idx ATTACH PARTITION jq.jobs_g1_created_idx;

--
-- Name: jobs_g1_deferred_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_deferred_idx ATTACH PARTITION jq.jobs_g1_deferred_idx;

--
-- Name: jobs_g1_lease_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_lease_idx ATTACH PARTITION jq.jobs_g1_lease_idx;

--
-- Name: jobs_g1_locked_by_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_locked_by_idx ATTACH PARTITION jq.jobs_g1_locked_by_idx;

--
-- Name: jobs_g1_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_pkey ATTACH PARTITION jq.jobs_g1_pkey;

--
-- Name: jobs_g1_running_key_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_key_idx ATTACH PARTITION jq.jobs_g1_running_key_idx;

--
-- Name: jobs_g1_running_tenant_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_tenant_idx ATTACH PARTITION jq.jobs_g1_running_tenant_idx;

--
-- Name: jobs_g1_suspect_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_suspect_idx ATTACH PARTITION jq.jobs_g1_suspect_idx;

--
-- Name: jobs_g1_tenant_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_tenant_created_idx ATTACH PARTITION jq.jobs_g1_tenant_created_idx;

--
-- Name: jobs_g2_claim_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_claim_idx ATTACH PARTITION jq.jobs_g2_claim_idx;

--
-- Name: jobs_g2_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_created_idx ATTACH PARTITION jq.jobs_g2_created_idx;

--
-- Name: jobs_g2_deferred_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_deferred_idx ATTACH PARTITION jq.jobs_g2_deferred_idx;

--
-- Name: jobs_g2_lease_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_lease_idx ATTACH PARTITION jq.jobs_g2_lease_idx;

--
-- Name: jobs_g2_locked_by_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_locked_by_idx ATTACH PARTITION jq.jobs_g2_locked_by_idx;

--
-- Name: jobs_g2_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_pkey ATTACH PARTITION jq.jobs_g2_pkey;

--
-- Name: jobs_g2_running_key_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_key_idx ATTACH PARTITION jq.jobs_g2_running_key_idx;

--
-- Name: jobs_g2_running_tenant_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_tenant_idx ATTACH PARTITION jq.jobs_g2_running_tenant_idx;

--
-- Name: jobs_g2_suspect_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_suspect_idx ATTACH PARTITION jq.jobs_g2_suspect_idx;

--
-- Name: jobs_g2_tenant_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_tenant_created_idx ATTACH PARTITION jq.jobs_g2_tenant_created_idx;

--
-- Name: jobs_waiting_claim_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_claim_idx ATTACH PARTITION jq.jobs_waiting_claim_idx;

--
-- Name: jobs_waiting_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_created_idx ATTACH PARTITION jq.jobs_waiting_created_idx;

--
-- Name: jobs_waiting_deferred_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_deferred_idx ATTACH PARTITION jq.jobs_waiting_deferred_idx;

--
-- Name: jobs_waiting_lease_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_lease_idx ATTACH PARTITION jq.jobs_waiting_lease_idx;

--
-- Name: jobs_waiting_locked_by_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_locked_by_idx ATTACH PARTITION jq.jobs_waiting_locked_by_idx;

--
-- Name: jobs_waiting_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_pkey ATTACH PARTITION jq.jobs_waiting_pkey;

--
-- Name: jobs_waiting_running_key_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_key_idx ATTACH PARTITION jq.jobs_waiting_running_key_idx;

--
-- Name: jobs_waiting_running_tenant_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_running_tenant_idx ATTACH PARTITION jq.jobs_waiting_running_tenant_idx;

--
-- Name: jobs_waiting_suspect_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_suspect_idx ATTACH PARTITION jq.jobs_waiting_suspect_idx;

--
-- Name: jobs_waiting_tenant_created_idx; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.jobs_tenant_created_idx ATTACH PARTITION jq.jobs_waiting_tenant_created_idx;

--
-- Name: queue_waiters_g0_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.queue_waiters_pkey ATTACH PARTITION jq.queue_waiters_g0_pkey;

--
-- Name: queue_waiters_g1_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.queue_waiters_pkey ATTACH PARTITION jq.queue_waiters_g1_pkey;

--
-- Name: queue_waiters_g2_pkey; Type: INDEX ATTACH; Schema: jq
--

ALTER INDEX jq.queue_waiters_pkey ATTACH PARTITION jq.queue_waiters_g2_pkey;

--
-- Name: jobs jobs_notify_ready; Type: TRIGGER; Schema: jq
--

CREATE TRIGGER jobs_notify_ready AFTER INSERT ON jq.jobs REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION jq._notify_ready();

--
-- Name: SCHEMA jq; Type: ACL; Schema: -
--

GRANT USAGE ON SCHEMA jq TO jq_producer;
GRANT USAGE ON SCHEMA jq TO jq_worker;
GRANT USAGE ON SCHEMA jq TO jq_admin;

--
-- Name: FUNCTION _actor(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._actor() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._actor() TO jq_admin;

--
-- Name: FUNCTION _attempt_error(p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._attempt_error(p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._attempt_error(p_error text) TO jq_admin;

--
-- Name: FUNCTION _attempt_log_append(p_log jsonb, p_attempt integer, p_at timestamp with time zone, p_worker text, p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._attempt_log_append(p_log jsonb, p_attempt integer, p_at timestamp with time zone, p_worker text, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._attempt_log_append(p_log jsonb, p_attempt integer, p_at timestamp with time zone, p_worker text, p_error text) TO jq_admin;

--
-- Name: FUNCTION _audit(p_action text, p_target jsonb, p_rows bigint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._audit(p_action text, p_target jsonb, p_rows bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._audit(p_action text, p_target jsonb, p_rows bigint) TO jq_admin;

--
-- Name: FUNCTION _audited_found(p_action text, p_target jsonb, p_found boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._audited_found(p_action text, p_target jsonb, p_found boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._audited_found(p_action text, p_target jsonb, p_found boolean) TO jq_admin;

--
-- Name: FUNCTION _bounded_error(p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._bounded_error(p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._bounded_error(p_error text) TO jq_admin;

--
-- Name: FUNCTION _bulk_filter(p_filter jsonb, p_ids uuid[], p_limit integer, p_dead boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._bulk_filter(p_filter jsonb, p_ids uuid[], p_limit integer, p_dead boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._bulk_filter(p_filter jsonb, p_ids uuid[], p_limit integer, p_dead boolean) TO jq_admin;

--
-- Name: FUNCTION _bulk_pick(p_source text, p_filter jsonb, p_ids uuid[], p_limit integer, p_state text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._bulk_pick(p_source text, p_filter jsonb, p_ids uuid[], p_limit integer, p_state text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._bulk_pick(p_source text, p_filter jsonb, p_ids uuid[], p_limit integer, p_state text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _bulk_target(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._bulk_target(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._bulk_target(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION _channel(p_queue text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._channel(p_queue text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._channel(p_queue text) TO jq_admin;

--
-- Name: FUNCTION _check_batch_payloads(p_jobs jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_batch_payloads(p_jobs jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_batch_payloads(p_jobs jsonb) TO jq_admin;

--
-- Name: FUNCTION _check_concurrency_key(p_key text, p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_concurrency_key(p_key text, p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_concurrency_key(p_key text, p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _check_error_filter(p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_error_filter(p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_error_filter(p_error text) TO jq_admin;

--
-- Name: FUNCTION _check_job(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_job(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_job(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _check_lease(p_lease interval); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_lease(p_lease interval) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_lease(p_lease interval) TO jq_admin;

--
-- Name: FUNCTION _check_metadata(p_metadata jsonb, p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_metadata(p_metadata jsonb, p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_metadata(p_metadata jsonb, p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _check_not_null(p_value anyelement, p_name text, p_hint text, p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_not_null(p_value anyelement, p_name text, p_hint text, p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_not_null(p_value anyelement, p_name text, p_hint text, p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _check_payload(p_payload jsonb, p_what text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_payload(p_payload jsonb, p_what text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_payload(p_payload jsonb, p_what text) TO jq_admin;

--
-- Name: FUNCTION _check_queue(p_queue text, p_prefix text, p_wildcard boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_queue(p_queue text, p_prefix text, p_wildcard boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_queue(p_queue text, p_prefix text, p_wildcard boolean) TO jq_admin;

--
-- Name: FUNCTION _check_results(p_job_ids uuid[], p_results jsonb[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_results(p_job_ids uuid[], p_results jsonb[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_results(p_job_ids uuid[], p_results jsonb[]) TO jq_admin;

--
-- Name: FUNCTION _check_schedule_name(p_name text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_schedule_name(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_schedule_name(p_name text) TO jq_admin;

--
-- Name: FUNCTION _check_text(p_value text, p_name text, p_max integer, p_nullable boolean, p_hint text, p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_text(p_value text, p_name text, p_max integer, p_nullable boolean, p_hint text, p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_text(p_value text, p_name text, p_max integer, p_nullable boolean, p_hint text, p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _check_timezone(p_timezone text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_timezone(p_timezone text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_timezone(p_timezone text) TO jq_admin;

--
-- Name: FUNCTION _check_worker(p_worker text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_worker(p_worker text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_worker(p_worker text) TO jq_admin;

--
-- Name: FUNCTION _check_worker_queues(p_queues jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_worker_queues(p_queues jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_worker_queues(p_queues jsonb) TO jq_admin;

--
-- Name: FUNCTION _check_worker_types(p_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._check_worker_types(p_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._check_worker_types(p_types text[]) TO jq_admin;

--
-- Name: FUNCTION _claim_charge(p_groups jq.claim_group[], p_quotas jq.claim_group[], p_taken jq.claim_job[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_charge(p_groups jq.claim_group[], p_quotas jq.claim_group[], p_taken jq.claim_job[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_charge(p_groups jq.claim_group[], p_quotas jq.claim_group[], p_taken jq.claim_job[]) TO jq_admin;

--
-- Name: FUNCTION _claim_charge_lanes(p_queue text, p_now timestamp with time zone, p_groups jq.claim_group[], p_jobs jq.claim_job[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_charge_lanes(p_queue text, p_now timestamp with time zone, p_groups jq.claim_group[], p_jobs jq.claim_job[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_charge_lanes(p_queue text, p_now timestamp with time zone, p_groups jq.claim_group[], p_jobs jq.claim_job[]) TO jq_admin;

--
-- Name: FUNCTION _claim_key_caps(p_jobs jq.claim_job[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_key_caps(p_jobs jq.claim_job[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_key_caps(p_jobs jq.claim_job[]) TO jq_admin;

--
-- Name: FUNCTION _claim_promote_due(p_queue text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_promote_due(p_queue text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_promote_due(p_queue text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _claim_quotas(p_queue text, p_types text[], p_now timestamp with time zone, p_fair boolean, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_quotas(p_queue text, p_types text[], p_now timestamp with time zone, p_fair boolean, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_quotas(p_queue text, p_types text[], p_now timestamp with time zone, p_fair boolean, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) TO jq_admin;

--
-- Name: FUNCTION _claim_quotas_fair(p_left integer, p_groups jq.claim_group[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_quotas_fair(p_left integer, p_groups jq.claim_group[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_quotas_fair(p_left integer, p_groups jq.claim_group[]) TO jq_admin;

--
-- Name: FUNCTION _claim_quotas_plain(p_queue text, p_types text[], p_now timestamp with time zone, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_quotas_plain(p_queue text, p_types text[], p_now timestamp with time zone, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_quotas_plain(p_queue text, p_types text[], p_now timestamp with time zone, p_left integer, p_groups jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) TO jq_admin;

--
-- Name: FUNCTION _claim_ready_groups(p_queue text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_ready_groups(p_queue text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_ready_groups(p_queue text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _claim_settle_caps(p_queue text, p_groups jq.claim_group[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_settle_caps(p_queue text, p_groups jq.claim_group[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_settle_caps(p_queue text, p_groups jq.claim_group[]) TO jq_admin;

--
-- Name: FUNCTION _claim_standing(p_queue text, p_groups jq.claim_group[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_standing(p_queue text, p_groups jq.claim_group[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_standing(p_queue text, p_groups jq.claim_group[]) TO jq_admin;

--
-- Name: FUNCTION _claim_suspect(p_queue text, p_worker text, p_lease interval, p_now timestamp with time zone, p_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_suspect(p_queue text, p_worker text, p_lease interval, p_now timestamp with time zone, p_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_suspect(p_queue text, p_worker text, p_lease interval, p_now timestamp with time zone, p_types text[]) TO jq_admin;

--
-- Name: FUNCTION _claim_take(p_queue text, p_types text[], p_now timestamp with time zone, p_quotas jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._claim_take(p_queue text, p_types text[], p_now timestamp with time zone, p_quotas jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._claim_take(p_queue text, p_types text[], p_now timestamp with time zone, p_quotas jq.claim_group[], p_jobs jq.claim_job[], p_skip_types text[]) TO jq_admin;

--
-- Name: FUNCTION _cron_bit_down(p_mask bigint, p_to integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_bit_down(p_mask bigint, p_to integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_bit_down(p_mask bigint, p_to integer) TO jq_admin;

--
-- Name: FUNCTION _cron_bit_up(p_mask bigint, p_from integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_bit_up(p_mask bigint, p_from integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_bit_up(p_mask bigint, p_from integer) TO jq_admin;

--
-- Name: FUNCTION _cron_check(p_cron text, OUT minutes bigint, OUT hours bigint, OUT days bigint, OUT months bigint, OUT weekdays bigint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_check(p_cron text, OUT minutes bigint, OUT hours bigint, OUT days bigint, OUT months bigint, OUT weekdays bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_check(p_cron text, OUT minutes bigint, OUT hours bigint, OUT days bigint, OUT months bigint, OUT weekdays bigint) TO jq_admin;

--
-- Name: FUNCTION _cron_day_allowed(p_days bigint, p_weekdays bigint, p_dom integer, p_dow integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_day_allowed(p_days bigint, p_weekdays bigint, p_dom integer, p_dow integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_day_allowed(p_days bigint, p_weekdays bigint, p_dom integer, p_dow integer) TO jq_admin;

--
-- Name: FUNCTION _cron_field(p_cron text, p_field text, p_label text, p_min integer, p_max integer, p_names text[], p_open_max integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_field(p_cron text, p_field text, p_label text, p_min integer, p_max integer, p_names text[], p_open_max integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_field(p_cron text, p_field text, p_label text, p_min integer, p_max integer, p_names text[], p_open_max integer) TO jq_admin;

--
-- Name: FUNCTION _cron_instant(p_local timestamp without time zone, p_zone text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_instant(p_local timestamp without time zone, p_zone text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_instant(p_local timestamp without time zone, p_zone text) TO jq_admin;

--
-- Name: FUNCTION _cron_latest(p_cron text, p_timezone text, p_at timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_latest(p_cron text, p_timezone text, p_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_latest(p_cron text, p_timezone text, p_at timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _cron_next(p_cron text, p_timezone text, p_after timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_next(p_cron text, p_timezone text, p_after timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_next(p_cron text, p_timezone text, p_after timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _cron_next_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_after timestamp without time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_next_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_after timestamp without time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_next_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_after timestamp without time zone) TO jq_admin;

--
-- Name: FUNCTION _cron_parse(p_cron text, OUT minutes integer[], OUT hours integer[], OUT days integer[], OUT months integer[], OUT weekdays integer[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_parse(p_cron text, OUT minutes integer[], OUT hours integer[], OUT days integer[], OUT months integer[], OUT weekdays integer[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_parse(p_cron text, OUT minutes integer[], OUT hours integer[], OUT days integer[], OUT months integer[], OUT weekdays integer[]) TO jq_admin;

--
-- Name: FUNCTION _cron_prev_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_at timestamp without time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_prev_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_at timestamp without time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_prev_local(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_at timestamp without time zone) TO jq_admin;

--
-- Name: FUNCTION _cron_slot_after(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_after timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_slot_after(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_after timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_slot_after(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_after timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _cron_slot_at_or_before(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_at timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._cron_slot_at_or_before(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._cron_slot_at_or_before(p_minutes bigint, p_hours bigint, p_days bigint, p_months bigint, p_weekdays bigint, p_zone text, p_at timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _dead_groups_matching(p_since timestamp with time zone, p_type text, p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._dead_groups_matching(p_since timestamp with time zone, p_type text, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._dead_groups_matching(p_since timestamp with time zone, p_type text, p_error text) TO jq_admin;

--
-- Name: FUNCTION _drop_history_partitions(p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._drop_history_partitions(p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._drop_history_partitions(p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _explain_bad_job(p_jobs jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._explain_bad_job(p_jobs jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._explain_bad_job(p_jobs jsonb) TO jq_admin;

--
-- Name: FUNCTION _id_prefix_sql(p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._id_prefix_sql(p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._id_prefix_sql(p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _install_lock_holders(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._install_lock_holders() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._install_lock_holders() TO jq_admin;

--
-- Name: FUNCTION _install_lock_tables(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._install_lock_tables() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._install_lock_tables() TO jq_admin;

--
-- Name: FUNCTION _is_filled_text(p_value text, p_max integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._is_filled_text(p_value text, p_max integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._is_filled_text(p_value text, p_max integer) TO jq_admin;

--
-- Name: FUNCTION _is_metadata_ok(p_metadata jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._is_metadata_ok(p_metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._is_metadata_ok(p_metadata jsonb) TO jq_admin;

--
-- Name: FUNCTION _is_queue_name(p_queue text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._is_queue_name(p_queue text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._is_queue_name(p_queue text) TO jq_admin;

--
-- Name: FUNCTION _is_run_at_in_range(p_run_at timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._is_run_at_in_range(p_run_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._is_run_at_in_range(p_run_at timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _job_cursor(p_created_at timestamp with time zone, p_id uuid); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_cursor(p_created_at timestamp with time zone, p_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_cursor(p_created_at timestamp with time zone, p_id uuid) TO jq_admin;

--
-- Name: FUNCTION _job_cursor_sql(p_cursor text, p_oldest_first boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_cursor_sql(p_cursor text, p_oldest_first boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_cursor_sql(p_cursor text, p_oldest_first boolean) TO jq_admin;

--
-- Name: FUNCTION _job_filter(p_filter jsonb, p_dead boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_filter(p_filter jsonb, p_dead boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_filter(p_filter jsonb, p_dead boolean) TO jq_admin;

--
-- Name: FUNCTION _job_filter_sql(p_filter jsonb, p_source text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_filter_sql(p_filter jsonb, p_source text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_filter_sql(p_filter jsonb, p_source text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _job_json_ok(p_job jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_json_ok(p_job jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_json_ok(p_job jsonb) TO jq_admin;

--
-- Name: FUNCTION _job_status_words(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._job_status_words() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._job_status_words() TO jq_admin;

--
-- Name: FUNCTION _jobs_columns(p_prefix text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._jobs_columns(p_prefix text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._jobs_columns(p_prefix text) TO jq_admin;

--
-- Name: FUNCTION _key_is_free(p_expires_at timestamp with time zone, p_job_id uuid, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._key_is_free(p_expires_at timestamp with time zone, p_job_id uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._key_is_free(p_expires_at timestamp with time zone, p_job_id uuid, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _key_room(p_type text, p_key text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._key_room(p_type text, p_key text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._key_room(p_type text, p_key text) TO jq_admin;

--
-- Name: FUNCTION _lost_attempt_error(p_cause text, p_worker text, p_attempt integer, p_max_attempts integer, p_locked_until timestamp with time zone, p_spared boolean, p_dead boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._lost_attempt_error(p_cause text, p_worker text, p_attempt integer, p_max_attempts integer, p_locked_until timestamp with time zone, p_spared boolean, p_dead boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._lost_attempt_error(p_cause text, p_worker text, p_attempt integer, p_max_attempts integer, p_locked_until timestamp with time zone, p_spared boolean, p_dead boolean) TO jq_admin;

--
-- Name: FUNCTION _make_history_partitions(p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._make_history_partitions(p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._make_history_partitions(p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _migration_pending(p_version integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._migration_pending(p_version integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._migration_pending(p_version integer) TO jq_admin;

--
-- Name: FUNCTION _notify_ready(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._notify_ready() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._notify_ready() TO jq_admin;

--
-- Name: FUNCTION _now(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._now() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._now() TO jq_admin;

--
-- Name: FUNCTION _orphan_jobs(p_ids uuid[], p_now timestamp with time zone, p_cause text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._orphan_jobs(p_ids uuid[], p_now timestamp with time zone, p_cause text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._orphan_jobs(p_ids uuid[], p_now timestamp with time zone, p_cause text) TO jq_admin;

--
-- Name: FUNCTION _payload_too_deep(p_payload jsonb, p_depth integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._payload_too_deep(p_payload jsonb, p_depth integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._payload_too_deep(p_payload jsonb, p_depth integer) TO jq_admin;

--
-- Name: FUNCTION _purge_past_retention(p_now timestamp with time zone, OUT dead_purged integer, OUT audit_purged integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._purge_past_retention(p_now timestamp with time zone, OUT dead_purged integer, OUT audit_purged integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._purge_past_retention(p_now timestamp with time zone, OUT dead_purged integer, OUT audit_purged integer) TO jq_admin;

--
-- Name: FUNCTION _raise_bad_argument(p_message text, p_sqlstate text, p_hint text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._raise_bad_argument(p_message text, p_sqlstate text, p_hint text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._raise_bad_argument(p_message text, p_sqlstate text, p_hint text) TO jq_admin;

--
-- Name: FUNCTION _reap_expired(p_queue text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._reap_expired(p_queue text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._reap_expired(p_queue text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _release_order(p_release text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._release_order(p_release text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._release_order(p_release text) TO jq_admin;

--
-- Name: FUNCTION _requeue_dead_jobs(p_ids uuid[], p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._requeue_dead_jobs(p_ids uuid[], p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._requeue_dead_jobs(p_ids uuid[], p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _rescue_gone_workers(p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._rescue_gone_workers(p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._rescue_gone_workers(p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _retire(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._retire(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._retire(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _retire_jobs(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone, p_worker text, p_results jsonb[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._retire_jobs(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone, p_worker text, p_results jsonb[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._retire_jobs(p_ids uuid[], p_outcome text, p_error text, p_now timestamp with time zone, p_worker text, p_results jsonb[]) TO jq_admin;

--
-- Name: FUNCTION _runnable_sample(p_queue text, p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._runnable_sample(p_queue text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._runnable_sample(p_queue text, p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _schedule_due_slots(p_cron text, p_timezone text, p_missed text, p_after timestamp with time zone, p_now timestamp with time zone, p_max_slots integer, p_grace interval, OUT slots timestamp with time zone[], OUT next_run_at timestamp with time zone, OUT problem text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._schedule_due_slots(p_cron text, p_timezone text, p_missed text, p_after timestamp with time zone, p_now timestamp with time zone, p_max_slots integer, p_grace interval, OUT slots timestamp with time zone[], OUT next_run_at timestamp with time zone, OUT problem text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._schedule_due_slots(p_cron text, p_timezone text, p_missed text, p_after timestamp with time zone, p_now timestamp with time zone, p_max_slots integer, p_grace interval, OUT slots timestamp with time zone[], OUT next_run_at timestamp with time zone, OUT problem text) TO jq_admin;

--
-- Name: FUNCTION _schedule_key(p_name text, p_slot timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._schedule_key(p_name text, p_slot timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._schedule_key(p_name text, p_slot timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _schedule_offset(p_name text, p_slot timestamp with time zone, p_jitter_seconds integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._schedule_offset(p_name text, p_slot timestamp with time zone, p_jitter_seconds integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._schedule_offset(p_name text, p_slot timestamp with time zone, p_jitter_seconds integer) TO jq_admin;

--
-- Name: FUNCTION _storage_backlog_idle(p_generation smallint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_backlog_idle(p_generation smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_backlog_idle(p_generation smallint) TO jq_admin;

--
-- Name: FUNCTION _storage_current(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_current() FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_current() TO jq_admin;

--
-- Name: FUNCTION _storage_empty(p_part regclass, p_target smallint, p_wait_after timestamp with time zone, p_batch integer, OUT moved integer, OUT truncated boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_empty(p_part regclass, p_target smallint, p_wait_after timestamp with time zone, p_batch integer, OUT moved integer, OUT truncated boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_empty(p_part regclass, p_target smallint, p_wait_after timestamp with time zone, p_batch integer, OUT moved integer, OUT truncated boolean) TO jq_admin;

--
-- Name: FUNCTION _storage_empty_marks(p_generation smallint, p_target smallint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_empty_marks(p_generation smallint, p_target smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_empty_marks(p_generation smallint, p_target smallint) TO jq_admin;

--
-- Name: FUNCTION _storage_generation(p_turns bigint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_generation(p_turns bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_generation(p_turns bigint) TO jq_admin;

--
-- Name: FUNCTION _storage_generation_empty(p_generation smallint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_generation_empty(p_generation smallint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_generation_empty(p_generation smallint) TO jq_admin;

--
-- Name: TABLE settings; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.idempotency_window; Type: ACL; Schema: jq
--

GRANT UPDATE(idempotency_window) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.history_retention; Type: ACL; Schema: jq
--

GRANT UPDATE(history_retention) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.history_premake_days; Type: ACL; Schema: jq
--

GRANT UPDATE(history_premake_days) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.default_max_attempts; Type: ACL; Schema: jq
--

GRANT UPDATE(default_max_attempts) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.max_payload_bytes; Type: ACL; Schema: jq
--

GRANT UPDATE(max_payload_bytes) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.max_payload_depth; Type: ACL; Schema: jq
--

GRANT UPDATE(max_payload_depth) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.max_error_length; Type: ACL; Schema: jq
--

GRANT UPDATE(max_error_length) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.dead_retention; Type: ACL; Schema: jq
--

GRANT UPDATE(dead_retention) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.audit_retention; Type: ACL; Schema: jq
--

GRANT UPDATE(audit_retention) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.max_result_bytes; Type: ACL; Schema: jq
--

GRANT UPDATE(max_result_bytes) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotate_storage; Type: ACL; Schema: jq
--

GRANT UPDATE(rotate_storage) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.waiting_horizon; Type: ACL; Schema: jq
--

GRANT UPDATE(waiting_horizon) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_turn_after; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_turn_after) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_turn_bytes; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_turn_bytes) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_min_bytes; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_min_bytes) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_move_batch; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_move_batch) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_move_limit; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_move_limit) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.rotation_backlog_wait; Type: ACL; Schema: jq
--

GRANT UPDATE(rotation_backlog_wait) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.tick_lock_wait; Type: ACL; Schema: jq
--

GRANT UPDATE(tick_lock_wait) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.tick_interval; Type: ACL; Schema: jq
--

GRANT UPDATE(tick_interval) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.maintain_interval; Type: ACL; Schema: jq
--

GRANT UPDATE(maintain_interval) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.schedule_fire_batch; Type: ACL; Schema: jq
--

GRANT UPDATE(schedule_fire_batch) ON TABLE jq.settings TO jq_admin;

--
-- Name: COLUMN settings.schedule_missed_grace; Type: ACL; Schema: jq
--

GRANT UPDATE(schedule_missed_grace) ON TABLE jq.settings TO jq_admin;

--
-- Name: FUNCTION _storage_rotate(p_settings jq.settings, OUT account jsonb, OUT call_again_after interval, OUT holding boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_rotate(p_settings jq.settings, OUT account jsonb, OUT call_again_after interval, OUT holding boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_rotate(p_settings jq.settings, OUT account jsonb, OUT call_again_after interval, OUT holding boolean) TO jq_admin;

--
-- Name: FUNCTION _storage_untouched(p_part regclass); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._storage_untouched(p_part regclass) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._storage_untouched(p_part regclass) TO jq_admin;

--
-- Name: FUNCTION _take_idempotency_keys(p_queues text[], p_keys text[], p_job_ids uuid[], p_now timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._take_idempotency_keys(p_queues text[], p_keys text[], p_job_ids uuid[], p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._take_idempotency_keys(p_queues text[], p_keys text[], p_job_ids uuid[], p_now timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION _tenant_policy(p_queue text, p_tenant text, OUT weight integer, OUT max_running integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._tenant_policy(p_queue text, p_tenant text, OUT weight integer, OUT max_running integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._tenant_policy(p_queue text, p_tenant text, OUT weight integer, OUT max_running integer) TO jq_admin;

--
-- Name: FUNCTION _try_lock(p_rel regclass, p_mode text, p_patience interval); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._try_lock(p_rel regclass, p_mode text, p_patience interval) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._try_lock(p_rel regclass, p_mode text, p_patience interval) TO jq_admin;

--
-- Name: FUNCTION _wake_queue(p_queue text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._wake_queue(p_queue text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._wake_queue(p_queue text) TO jq_admin;

--
-- Name: FUNCTION _worker_isolation(p_worker text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq._worker_isolation(p_worker text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq._worker_isolation(p_worker text) TO jq_admin;

--
-- Name: FUNCTION error_fingerprint(p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.error_fingerprint(p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.error_fingerprint(p_error text) TO jq_admin;

--
-- Name: FUNCTION jq_audit_log(p_since timestamp with time zone, p_action text, p_actor text, p_limit integer, p_before_id bigint); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_audit_log(p_since timestamp with time zone, p_action text, p_actor text, p_limit integer, p_before_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_audit_log(p_since timestamp with time zone, p_action text, p_actor text, p_limit integer, p_before_id bigint) TO jq_admin;

--
-- Name: FUNCTION jq_cancel(p_job_id uuid); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_cancel(p_job_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_cancel(p_job_id uuid) TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_cancel(p_job_id uuid) TO jq_admin;

--
-- Name: FUNCTION jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_claim(p_queue text, p_worker text, p_limit integer, p_lease interval, p_types text[]) TO jq_admin;

--
-- Name: FUNCTION jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_complete(p_job_ids uuid[], p_worker text, p_results jsonb[]) TO jq_admin;

--
-- Name: FUNCTION jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone, p_count integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone, p_count integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_cron_slots(p_cron text, p_timezone text, p_after timestamp with time zone, p_count integer) TO jq_admin;

--
-- Name: FUNCTION jq_dead_delete(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_dead_delete(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_dead_delete(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone, p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_dead_discard_group(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_dead_groups(p_since timestamp with time zone, p_type text, p_error text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_dead_groups(p_since timestamp with time zone, p_type text, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_dead_groups(p_since timestamp with time zone, p_type text, p_error text) TO jq_admin;

--
-- Name: FUNCTION jq_dead_requeue(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_dead_requeue(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_dead_requeue(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb) TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_enqueue(p_type text, p_payload jsonb, p_queue text, p_priority integer, p_run_at timestamp with time zone, p_max_attempts integer, p_idempotency_key text, p_tenant text, p_concurrency_key text, p_metadata jsonb) TO jq_admin;

--
-- Name: FUNCTION jq_enqueue_many(p_jobs jsonb); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_enqueue_many(p_jobs jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_enqueue_many(p_jobs jsonb) TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_enqueue_many(p_jobs jsonb) TO jq_admin;

--
-- Name: FUNCTION jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_fail(p_job_id uuid, p_worker text, p_error text, p_retry_in interval, p_discard boolean) TO jq_admin;

--
-- Name: FUNCTION jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_heartbeat(p_job_ids uuid[], p_worker text, p_lease interval) TO jq_admin;

--
-- Name: FUNCTION jq_job_attempts(p_job_id uuid); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_job_attempts(p_job_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_job_attempts(p_job_id uuid) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_job_attempts(p_job_id uuid) TO jq_admin;

--
-- Name: FUNCTION jq_job_detail(p_job_id uuid); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_job_detail(p_job_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_job_detail(p_job_id uuid) TO jq_admin;

--
-- Name: FUNCTION jq_jobs(p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_jobs(p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_jobs(p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean) TO jq_admin;

--
-- Name: FUNCTION jq_jobs_cancel(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_jobs_cancel(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_jobs_cancel(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_jobs_discard(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_jobs_discard(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_jobs_discard(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_jobs_retry(p_filter jsonb, p_ids uuid[], p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_jobs_retry(p_filter jsonb, p_ids uuid[], p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_jobs_retry(p_filter jsonb, p_ids uuid[], p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_key_limit_delete(p_type text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_key_limit_delete(p_type text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_key_limit_delete(p_type text) TO jq_admin;

--
-- Name: FUNCTION jq_key_limit_set(p_type text, p_max_running integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_key_limit_set(p_type text, p_max_running integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_key_limit_set(p_type text, p_max_running integer) TO jq_admin;

--
-- Name: FUNCTION jq_limits(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_limits() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_limits() TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_limits() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_limits() TO jq_admin;

--
-- Name: FUNCTION jq_maintain(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_maintain() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_maintain() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_maintain() TO jq_admin;

--
-- Name: FUNCTION jq_queue_pause(p_queue text, p_type text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_queue_pause(p_queue text, p_type text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_queue_pause(p_queue text, p_type text) TO jq_admin;

--
-- Name: FUNCTION jq_queue_pauses(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_queue_pauses() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_queue_pauses() TO jq_admin;

--
-- Name: FUNCTION jq_queue_resume(p_queue text, p_type text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_queue_resume(p_queue text, p_type text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_queue_resume(p_queue text, p_type text) TO jq_admin;

--
-- Name: FUNCTION jq_queue_set_fair(p_queue text, p_fair boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_queue_set_fair(p_queue text, p_fair boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_queue_set_fair(p_queue text, p_fair boolean) TO jq_admin;

--
-- Name: FUNCTION jq_release(p_job_ids uuid[], p_worker text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_release(p_job_ids uuid[], p_worker text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_release(p_job_ids uuid[], p_worker text) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_release(p_job_ids uuid[], p_worker text) TO jq_admin;

--
-- Name: FUNCTION jq_retry_dead(p_type text, p_error text, p_since timestamp with time zone, p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_retry_dead(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_retry_dead(p_type text, p_error text, p_since timestamp with time zone, p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_schedule_delete(p_name text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedule_delete(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedule_delete(p_name text) TO jq_admin;

--
-- Name: FUNCTION jq_schedule_pause(p_name text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedule_pause(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedule_pause(p_name text) TO jq_admin;

--
-- Name: FUNCTION jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb, p_queue text, p_priority integer, p_jitter_seconds integer, p_max_attempts integer, p_missed text, p_next_run_at timestamp with time zone); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb, p_queue text, p_priority integer, p_jitter_seconds integer, p_max_attempts integer, p_missed text, p_next_run_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedule_put(p_name text, p_cron text, p_timezone text, p_type text, p_payload jsonb, p_queue text, p_priority integer, p_jitter_seconds integer, p_max_attempts integer, p_missed text, p_next_run_at timestamp with time zone) TO jq_admin;

--
-- Name: FUNCTION jq_schedule_resume(p_name text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedule_resume(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedule_resume(p_name text) TO jq_admin;

--
-- Name: FUNCTION jq_schedules(p_name text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedules(p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedules(p_name text) TO jq_admin;

--
-- Name: FUNCTION jq_schedules_due(p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedules_due(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedules_due(p_limit integer) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_schedules_due(p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_schedules_fire(p_names text[], p_due_at timestamp with time zone[], p_slots timestamp with time zone[], p_next_run_at timestamp with time zone[]) TO jq_admin;

--
-- Name: FUNCTION jq_schedules_fire_due(p_limit integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_schedules_fire_due(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_schedules_fire_due(p_limit integer) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_schedules_fire_due(p_limit integer) TO jq_admin;

--
-- Name: FUNCTION jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_set_waiting(p_queues text[], p_worker text, p_waiting boolean) TO jq_admin;

--
-- Name: FUNCTION jq_stats(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_stats() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_stats() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_stats() TO jq_admin;

--
-- Name: FUNCTION jq_status(p_job_id uuid); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_status(p_job_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_status(p_job_id uuid) TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_status(p_job_id uuid) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_status(p_job_id uuid) TO jq_admin;

--
-- Name: FUNCTION jq_storage(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_storage() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_storage() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_storage() TO jq_admin;

--
-- Name: FUNCTION jq_tenant_policies(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_tenant_policies() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_tenant_policies() TO jq_admin;

--
-- Name: FUNCTION jq_tenant_policy_delete(p_queue text, p_tenant text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_tenant_policy_delete(p_queue text, p_tenant text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_tenant_policy_delete(p_queue text, p_tenant text) TO jq_admin;

--
-- Name: FUNCTION jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer, p_max_running integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer, p_max_running integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_tenant_policy_set(p_queue text, p_tenant text, p_weight integer, p_max_running integer) TO jq_admin;

--
-- Name: FUNCTION jq_tenants(p_queue text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_tenants(p_queue text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_tenants(p_queue text) TO jq_admin;

--
-- Name: FUNCTION jq_throughput(p_since timestamp with time zone, p_bucket interval); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_throughput(p_since timestamp with time zone, p_bucket interval) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_throughput(p_since timestamp with time zone, p_bucket interval) TO jq_admin;

--
-- Name: FUNCTION jq_tick(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_tick() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_tick() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_tick() TO jq_admin;

--
-- Name: FUNCTION jq_unhandled_types(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_unhandled_types() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_unhandled_types() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_unhandled_types() TO jq_admin;

--
-- Name: FUNCTION jq_version(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_version() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_version() TO jq_producer;
GRANT ALL ON FUNCTION jq.jq_version() TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_version() TO jq_admin;

--
-- Name: FUNCTION jq_worker_beat(p_worker text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_worker_beat(p_worker text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_worker_beat(p_worker text) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_worker_beat(p_worker text) TO jq_admin;

--
-- Name: FUNCTION jq_worker_deregister(p_worker text); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_worker_deregister(p_worker text) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_worker_deregister(p_worker text) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_worker_deregister(p_worker text) TO jq_admin;

--
-- Name: FUNCTION jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]) TO jq_worker;
GRANT ALL ON FUNCTION jq.jq_worker_register(p_worker text, p_queues jsonb, p_host text, p_pid integer, p_version text, p_types text[]) TO jq_admin;

--
-- Name: FUNCTION jq_workers(); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.jq_workers() FROM PUBLIC;
GRANT ALL ON FUNCTION jq.jq_workers() TO jq_admin;

--
-- Name: FUNCTION retry_delay(p_attempts integer); Type: ACL; Schema: jq
--

REVOKE ALL ON FUNCTION jq.retry_delay(p_attempts integer) FROM PUBLIC;
GRANT ALL ON FUNCTION jq.retry_delay(p_attempts integer) TO jq_admin;

--
-- Name: TABLE audit_log; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.audit_log TO jq_admin;

--
-- Name: TABLE dead_jobs; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.dead_jobs TO jq_admin;

--
-- Name: TABLE fair_lanes; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.fair_lanes TO jq_admin;

--
-- Name: TABLE idempotency_keys; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.idempotency_keys TO jq_admin;

--
-- Name: TABLE job_history; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.job_history TO jq_admin;

--
-- Name: TABLE job_history_default; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.job_history_default TO jq_admin;

--
-- Name: SEQUENCE storage_turns; Type: ACL; Schema: jq
--

GRANT SELECT ON SEQUENCE jq.storage_turns TO jq_admin;

--
-- Name: TABLE jobs; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.jobs TO jq_admin;

--
-- Name: TABLE jobs_g0; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.jobs_g0 TO jq_admin;

--
-- Name: TABLE jobs_g1; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.jobs_g1 TO jq_admin;

--
-- Name: TABLE jobs_g2; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.jobs_g2 TO jq_admin;

--
-- Name: TABLE jobs_waiting; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.jobs_waiting TO jq_admin;

--
-- Name: TABLE key_limits; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.key_limits TO jq_admin;

--
-- Name: TABLE migrations; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.migrations TO jq_admin;

--
-- Name: TABLE queue_pauses; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_pauses TO jq_admin;

--
-- Name: TABLE queue_settings; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_settings TO jq_admin;

--
-- Name: TABLE queue_waiters; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_waiters TO jq_admin;

--
-- Name: TABLE queue_waiters_g0; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_waiters_g0 TO jq_admin;

--
-- Name: TABLE queue_waiters_g1; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_waiters_g1 TO jq_admin;

--
-- Name: TABLE queue_waiters_g2; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.queue_waiters_g2 TO jq_admin;

--
-- Name: TABLE release; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.release TO jq_admin;

--
-- Name: TABLE schedules; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.schedules TO jq_admin;

--
-- Name: TABLE storage_generations; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.storage_generations TO jq_admin;

--
-- Name: TABLE tenant_policies; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.tenant_policies TO jq_admin;

--
-- Name: TABLE tick_state; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.tick_state TO jq_admin;

--
-- Name: TABLE timezone_names; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.timezone_names TO jq_admin;

--
-- Name: TABLE workers; Type: ACL; Schema: jq
--

GRANT SELECT ON TABLE jq.workers TO jq_admin;
