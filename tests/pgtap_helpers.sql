-- Test-only helper schema for the pgTAP suite (tests/sql/**). The harness
-- loads it into the pgTAP database after sql/install.sql; it is never part
-- of an installation.
create schema if not exists jq_test;

-- Freezes jq's clock (jq._now()) at p_at for the rest of the transaction.
create or replace function jq_test.set_now(p_at timestamptz)
returns timestamptz
language sql
as $$
    select set_config('jq.now', p_at::text, true)::timestamptz
$$;

-- Moves jq's clock forward by p_by for the rest of the transaction.
create or replace function jq_test.advance(p_by interval)
returns timestamptz
language sql
as $$
    select set_config('jq.now', (jq._now() + p_by)::text, true)::timestamptz
$$;

-- Enqueues p_count ready jobs of one type and queue; returns their ids.
create or replace function jq_test.enqueue_ready(
    p_count integer, p_type text default 'noop', p_queue text default 'default',
    p_max_attempts integer default null)
returns uuid[]
language sql
as $$
    select array_agg(e.job_id)
      from generate_series(1, p_count) as g(i)
     cross join lateral jq.jq_enqueue(p_type, jsonb_build_object('i', g.i), p_queue, 0, null, p_max_attempts) e
$$;

-- Enqueues one job and claims it for p_worker; returns its id.
create or replace function jq_test.enqueue_and_claim(
    p_worker text default 'w1', p_type text default 'noop', p_queue text default 'default',
    p_max_attempts integer default null, p_lease interval default '5 minutes')
returns uuid
language plpgsql
as $$
declare
    v_id uuid;
begin
    select e.job_id into v_id from jq.jq_enqueue(p_type, '{}', p_queue, 10000, null, p_max_attempts) e;
    perform 1 from jq.jq_claim(p_queue, p_worker, 1, p_lease, array[p_type]) c where c.id = v_id;
    if not found then
        raise exception 'enqueue_and_claim: job % was not claimed', v_id;
    end if;
    return v_id;
end
$$;

-- Enqueues p_count ready jobs of one tenant (null: no tenant) in p_queue, at
-- jq's clock (run_at = jq._now(); on the test clock one millisecond apart, which
-- moves it on); returns their ids in enqueue order. Move the clock
-- (jq_test.advance) between calls to make one batch older.
create or replace function jq_test.enqueue_tenant(
    p_tenant text, p_count integer, p_queue text default 'default', p_priority integer default 0,
    p_type text default 'noop', p_concurrency_key text default null)
returns uuid[]
language plpgsql
as $$
declare
    v_ids uuid[] := '{}';
begin
    for i in 1..p_count loop
        -- On the test clock, a millisecond apart: jobs due at the same instant have no
        -- order among them (the claim orders by run_at), and tests ask for "the oldest".
        if i > 1 and coalesce(current_setting('jq.now', true), '') <> '' then
            perform jq_test.advance('1 millisecond');
        end if;
        v_ids := v_ids || (select e.job_id
                             from jq.jq_enqueue(p_type, jsonb_build_object('tenant', p_tenant, 'i', i), p_queue,
                                                p_priority, null, null, null, p_tenant, p_concurrency_key) e);
    end loop;
    return v_ids;
end
$$;

-- Runs p_claims claims of p_limit jobs in p_queue for p_worker; returns the
-- tenants of the claimed jobs in claim order ('-' for no tenant; the rows of
-- one claim sorted by tenant). Stops early when a claim returns nothing.
create or replace function jq_test.claim_tenants(
    p_queue text, p_claims integer, p_limit integer default 1, p_worker text default 'w1')
returns text[]
language plpgsql
as $$
declare
    v_out  text[] := '{}';
    v_got  text[];
begin
    for i in 1 .. p_claims loop
        select array_agg(coalesce(c.tenant, '-') order by coalesce(c.tenant, '-')) into v_got
          from jq.jq_claim(p_queue, p_worker, p_limit) c;
        exit when v_got is null;
        v_out := v_out || v_got;
    end loop;
    return v_out;
end
$$;

-- A dead job: enqueues one job of p_type with a single attempt, claims it as
-- worker w1 and fails it with p_error; returns its id. The dead-letter tests
-- (jq_dead_groups, jq_retry_dead) build their groups with it.
create or replace function jq_test.bury(
    p_type text, p_error text, p_queue text default 'dead_q', p_payload jsonb default '{}',
    p_priority integer default 10000)
returns uuid
language plpgsql
as $$
declare
    v_id uuid;
begin
    select e.job_id into v_id from jq.jq_enqueue(p_type, p_payload, p_queue, p_priority, null, 1) e;
    perform 1 from jq.jq_claim(p_queue, 'w1', 1, '5 minutes', array[p_type]) c where c.id = v_id;
    if not found then
        raise exception 'bury: job % was not claimed', v_id;
    end if;
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end
$$;

-- The SQLSTATE and constraint name a statement fails with ('23514
-- jobs_type_length'), or 'no error'. The schema constraint tests use it.
create or replace function jq_test.violation(p_sql text)
returns text
language plpgsql
as $$
declare
    v_state      text;
    v_constraint text;
begin
    execute p_sql;
    return 'no error';
exception when others then
    get stacked diagnostics v_state = returned_sqlstate, v_constraint = constraint_name;
    return v_state || ' ' || coalesce(v_constraint, '');
end
$$;

-- The history partition of one UTC day, or null when there is none.
create or replace function jq_test.history_partition(p_day date)
returns regclass
language sql
as $$
    select to_regclass('jq.job_history_p' || to_char(p_day, 'YYYYMMDD'))
$$;
update jq.settings set allow_test_clock = true;  -- the suite moves the clock (jq_test.set_now)

-- The generation now current (jq._storage_current): only jq_tick changes it,
-- so a test has it for as long as it does not tick.
create or replace function jq_test.at_slot_start()
returns smallint
language sql
as $$
    select jq._storage_current()
$$;

-- Makes generation p_generation as old as p_age (jq.storage_generations.current_since):
-- the current one old enough to turn, or the oldest one waiting that long.
create or replace function jq_test.age_generation(p_generation integer, p_age interval)
returns void
language sql
as $$
    update jq.storage_generations set current_since = clock_timestamp() - p_age where generation = p_generation
$$;

-- Moves a job into another generation of jq.jobs (an UPDATE of the partition
-- key moves the row), as if it had been written while that generation was current.
create or replace function jq_test.store_in(p_job_id uuid, p_generation integer)
returns void
language sql
as $$
    update jq.jobs set generation = p_generation where id = p_job_id
$$;

-- Empties the two generations that are not current (jobs and marks) as
-- jq_tick would, without turning: rows that earlier tests wrote and rolled
-- back leave pages behind, and a turn waits until the oldest generation is
-- empty.
create or replace function jq_test.empty_oldest()
returns void
language plpgsql
as $$
declare
    v_current smallint := jq._storage_current();
    v_gen smallint;
begin
    foreach v_gen in array array[(v_current + 1) % 3, (v_current + 2) % 3]::smallint[] loop
        while not jq._storage_untouched(format('jq.jobs_g%s', v_gen)::regclass) loop
            perform jq._storage_empty(format('jq.jobs_g%s', v_gen)::regclass, v_current, now() + interval '5 minutes', 500);
        end loop;
        if pg_relation_size(format('jq.queue_waiters_g%s', v_gen)::regclass) > 0 then
            perform jq._storage_empty_marks(v_gen, v_current);
        end if;
    end loop;
end
$$;

-- One jq_tick call whatever the last one asked for: the due time
-- (jq.tick_due) is set back first, as if the wait had passed.
create or replace function jq_test.tick()
returns table(call_again_after interval, account jsonb)
language plpgsql
as $$
begin
    perform setval('jq.tick_due', 0);
    return query select * from jq.jq_tick();
end
$$;
