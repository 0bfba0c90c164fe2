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
