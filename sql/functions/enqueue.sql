-- Enqueue: called by producers inside their own transaction, so a job exists
-- if and only if the business change that caused it committed.

-- The run_at rule of jq_enqueue and jq_enqueue_many: infinite or far-off
-- times break jq_stats (now() - run_at overflows) and clients (Python's
-- datetime stops at years 1 and 9999): a worker could not read its claim.
create or replace function jq._is_run_at_in_range(p_run_at timestamptz)
returns boolean
language sql
immutable
as $$
    select p_run_at between '0001-01-02 00:00:00+00' and '9999-12-30 00:00:00+00'
$$;

-- The metadata rule (jq.jobs.metadata): null, or a JSON object whose values
-- are strings (headers, like a message's: jq's own are the W3C trace context,
-- traceparent and tracestate), at most 8192 bytes as JSON text. One
-- expression, for jq_enqueue_many's one-pass check; jq._check_metadata
-- explains a refusal.
create or replace function jq._is_metadata_ok(p_metadata jsonb)
returns boolean
language sql
immutable
parallel safe
as $$
    select p_metadata is null
        or (jsonb_typeof(p_metadata) = 'object'
            and octet_length(p_metadata::text) <= 8192
            and not jsonb_path_exists(p_metadata, 'strict $.* ? (@.type() != "string")'))
$$;

-- Refuses metadata that breaks the rule above, naming it (p_prefix:
-- 'jobs[3].'): not an object or a value not a string 22023, over 8192
-- bytes 54000 (as an oversized payload).
create or replace function jq._check_metadata(p_metadata jsonb, p_prefix text default '')
returns void
language plpgsql
immutable
as $$
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

-- True when one element of jq_enqueue_many's array is a valid job by every
-- rule of jq._check_job, with run_at an ISO 8601 timestamp (or absent). One
-- SQL expression, so a whole batch is checked in one pass; an element it
-- rejects is explained by jq._explain_bad_job.
create or replace function jq._job_json_ok(p_job jsonb)
returns boolean
language sql
immutable
as $$
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
$$;

-- Raises the precise error for the first invalid element of a batch, naming
-- it (jobs[i].field). Called only when jq._job_json_ok rejected the batch, or
-- one of its timestamps failed to convert.
create or replace function jq._explain_bad_job(p_jobs jsonb)
returns void
language plpgsql
as $$
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

-- One job. Returns its id, 'queued' or 'scheduled', and duplicate = false;
-- or, when (queue, idempotency_key) is already taken within its window, the
-- original job's id and current status with duplicate = true. p_metadata:
-- the job's headers (jq._is_metadata_ok), e.g. the W3C trace context.
create or replace function jq.jq_enqueue(
    p_type            text,
    p_payload         jsonb default '{}',
    p_queue           text default 'default',
    p_priority        integer default 0,
    p_run_at          timestamptz default null,
    p_max_attempts    integer default null,
    p_idempotency_key text default null,
    p_tenant          text default null,
    p_concurrency_key text default null,
    p_metadata        jsonb default null)
returns table (job_id uuid, status text, duplicate boolean)
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
comment on function jq.jq_enqueue(text, jsonb, text, integer, timestamptz, integer, text, text, text, jsonb) is
    'Enqueue one job in the caller''s transaction: (type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata) -> (job_id, status queued|scheduled, duplicate). metadata: an object of strings (traceparent, tracestate), at most 8192 bytes.';

-- Many jobs in one call: a JSON array of objects with the keys type, payload,
-- queue, priority, run_at, max_attempts, idempotency_key, tenant,
-- concurrency_key, metadata. One row per
-- element, in input order. Checked in one pass (jq._job_json_ok), inserted
-- with one INSERT, so one NOTIFY per queue.
create or replace function jq.jq_enqueue_many(p_jobs jsonb)
returns table (job_id uuid, status text, duplicate boolean)
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
comment on function jq.jq_enqueue_many(jsonb) is
    'Enqueue many jobs in one call: a JSON array of {type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata}; one (job_id, status, duplicate) row per element, in order.';
