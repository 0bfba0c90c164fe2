-- Enqueue: called by producers inside their own transaction, so a job exists
-- if and only if the business change that caused it committed.

-- One job. Returns its id, 'queued' or 'scheduled', and duplicate = false;
-- or, when (queue, idempotency_key) is already taken within its window, the
-- original job's id and current status with duplicate = true.
create or replace function jq.jq_enqueue(
    p_type            text,
    p_payload         jsonb default '{}',
    p_queue           text default 'default',
    p_priority        integer default 0,
    p_run_at          timestamptz default null,
    p_max_attempts    integer default null,
    p_idempotency_key text default null,
    p_tenant          text default null)
returns table (job_id uuid, status text, duplicate boolean)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
as $$
declare
    v_now    timestamptz := jq._now();
    v_id     uuid := gen_random_uuid();
    v_run_at timestamptz := coalesce(p_run_at, v_now);
    v_holder uuid;
begin
    perform jq._check_job(p_type, p_payload, p_queue, p_priority, p_max_attempts, p_idempotency_key, p_tenant);
    if p_idempotency_key is not null then
        v_holder := jq._take_idempotency_key(p_queue, p_idempotency_key, v_id, v_now);
        if v_holder <> v_id then
            return query
                select v_holder, coalesce((select s.status from jq.jq_status(v_holder) s), 'not_found'), true;
            return;
        end if;
    end if;
    insert into jq.jobs (id, queue, type, payload, priority, run_at, max_attempts,
                         idempotency_key, tenant, created_at)
    values (v_id, p_queue, p_type, coalesce(p_payload, '{}'), p_priority, v_run_at,
            coalesce(p_max_attempts, (select default_max_attempts from jq.settings)),
            p_idempotency_key, p_tenant, v_now);
    return query select v_id, case when v_run_at > v_now then 'scheduled' else 'queued' end, false;
end
$$;
comment on function jq.jq_enqueue(text, jsonb, text, integer, timestamptz, integer, text, text) is
    'Enqueue one job in the caller''s transaction: (type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant) -> (job_id, status queued|scheduled, duplicate).';

-- Many jobs in one call: a JSON array of objects with the keys type, payload,
-- queue, priority, run_at, max_attempts, idempotency_key, tenant. One row per
-- element, in input order. One INSERT, so one NOTIFY per queue.
create or replace function jq.jq_enqueue_many(p_jobs jsonb)
returns table (job_id uuid, status text, duplicate boolean)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
as $$
declare
    v_now     timestamptz := jq._now();
    v_default integer := (select default_max_attempts from jq.settings);
    v_rows    jsonb[];
    v_elem    jsonb;
    v_index   integer := 0;
    v_field   text;
    v_ids     uuid[] := '{}';
    v_holders uuid[] := '{}';
    v_holder  uuid;
begin
    if p_jobs is null then
        raise exception 'jobs must not be null' using errcode = '22004';
    elsif jsonb_typeof(p_jobs) <> 'array' then
        raise exception 'jobs must be a JSON array of job objects, not %', jsonb_typeof(p_jobs)
            using errcode = '22023';
    elsif jsonb_array_length(p_jobs) > 10000 then
        raise exception 'jobs holds % elements; the limit is 10000 per call', jsonb_array_length(p_jobs)
            using errcode = '22023', hint = 'Split the batch.';
    end if;

    -- Validate every element before writing anything, naming the element.
    for v_elem in select e from jsonb_array_elements(p_jobs) e loop
        if jsonb_typeof(v_elem) <> 'object' then
            raise exception 'jobs[%] must be a JSON object, not %', v_index, jsonb_typeof(v_elem)
                using errcode = '22023';
        end if;
        select k into v_field from jsonb_object_keys(v_elem) k
         where k not in ('type', 'payload', 'queue', 'priority', 'run_at', 'max_attempts',
                         'idempotency_key', 'tenant')
         limit 1;
        if v_field is not null then
            raise exception 'jobs[%] has an unknown key %', v_index, quote_literal(v_field)
                using errcode = '22023',
                      hint = 'Keys: type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant.';
        end if;
        foreach v_field in array array['type', 'queue', 'idempotency_key', 'tenant', 'run_at'] loop
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
        end if;
        v_elem := jsonb_build_object(
            'type', v_elem -> 'type',
            'payload', coalesce(nullif(v_elem -> 'payload', 'null'), '{}'),
            'queue', coalesce(nullif(v_elem -> 'queue', 'null'), '"default"'),
            'priority', coalesce(nullif(v_elem -> 'priority', 'null'), '0'),
            'run_at', v_elem -> 'run_at',
            'max_attempts', coalesce(nullif(v_elem -> 'max_attempts', 'null'), to_jsonb(v_default)),
            'idempotency_key', v_elem -> 'idempotency_key',
            'tenant', v_elem -> 'tenant');
        perform jq._check_job(v_elem ->> 'type', v_elem -> 'payload', v_elem ->> 'queue',
                              (v_elem ->> 'priority')::integer, (v_elem ->> 'max_attempts')::integer,
                              v_elem ->> 'idempotency_key', v_elem ->> 'tenant',
                              format('jobs[%s].', v_index));
        v_rows := array_append(v_rows, v_elem);
        v_ids := array_append(v_ids, gen_random_uuid());
        v_index := v_index + 1;
    end loop;

    -- Keys first, in input order: the first element with a key wins it, a
    -- later one with the same key is a duplicate of the first.
    for v_index in 1 .. coalesce(cardinality(v_rows), 0) loop
        if v_rows[v_index] ->> 'idempotency_key' is null then
            v_holders := array_append(v_holders, v_ids[v_index]);
        else
            v_holder := jq._take_idempotency_key(v_rows[v_index] ->> 'queue',
                                                 v_rows[v_index] ->> 'idempotency_key',
                                                 v_ids[v_index], v_now);
            v_holders := array_append(v_holders, v_holder);
        end if;
    end loop;

    insert into jq.jobs (id, queue, type, payload, priority, run_at, max_attempts,
                         idempotency_key, tenant, created_at)
    select i.id, r ->> 'queue', r ->> 'type', r -> 'payload', (r ->> 'priority')::smallint,
           coalesce((r ->> 'run_at')::timestamptz, v_now), (r ->> 'max_attempts')::smallint,
           r ->> 'idempotency_key', r ->> 'tenant', v_now
      from unnest(v_rows, v_ids, v_holders) as i(r, id, holder)
     where i.id = i.holder;

    return query
        select i.holder,
               case when i.id <> i.holder then coalesce((select s.status from jq.jq_status(i.holder) s), 'not_found')
                    when coalesce((i.r ->> 'run_at')::timestamptz, v_now) > v_now then 'scheduled'
                    else 'queued' end,
               i.id <> i.holder
          from unnest(v_rows, v_ids, v_holders) with ordinality as i(r, id, holder, ord)
         order by i.ord;
end
$$;
comment on function jq.jq_enqueue_many(jsonb) is
    'Enqueue many jobs in one call: a JSON array of {type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant}; one (job_id, status, duplicate) row per element, in order.';
