-- Policies: how jq_claim shares a queue between tenants and caps running work.
--
-- The claim rule (jq_claim): priority first; among ready jobs of equal
-- priority, tenants take turns by weighted fair share; within a tenant, the
-- oldest run_at first. Jobs without a tenant are one tenant of their own (''),
-- and tenants need no registration: a policy row only changes a weight or
-- sets a cap.

-- The policy that applies to one tenant of a queue, field by field: the
-- tenant's own row beats tenant '*', and the queue's row beats queue '*'.
-- weight is 1 and max_running null (no cap) when nothing applies.
create or replace function jq._tenant_policy(p_queue text, p_tenant text,
                                             out weight integer, out max_running integer)
language sql
stable
as $$
    select coalesce((array_agg(p.weight order by p.tenant = '*', p.queue = '*')
                        filter (where p.weight is not null))[1], 1),
           (array_agg(p.max_running order by p.tenant = '*', p.queue = '*')
               filter (where p.max_running is not null))[1]
      from jq.tenant_policies p
     where p.queue in (p_queue, '*')
       and p.tenant in (p_tenant, '*')
$$;

-- Sets (or changes) a tenant's weight and cap in a queue. queue '*' applies
-- to every queue, tenant '*' to every tenant without a row of its own, tenant
-- null to jobs without a tenant. A null weight or max_running leaves that
-- field to a less specific row (weight 1 and no cap when none).
create or replace function jq.jq_tenant_policy_set(
    p_queue       text,
    p_tenant      text,
    p_weight      integer default null,
    p_max_running integer default null)
returns table (queue text, tenant text, weight integer, max_running integer)
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
comment on function jq.jq_tenant_policy_set(text, text, integer, integer) is
    'Set a tenant''s weight (shares, 1..1000) and max_running (cap on running jobs, 0 pauses) in a queue: (queue or *, tenant or * or null for no tenant, weight, max_running) -> the row.';

-- Drops a tenant's policy row (admins, pyjq.tenant_policy_delete); the tenant
-- falls back to a less specific row, or weight 1 and no cap.
create or replace function jq.jq_tenant_policy_delete(p_queue text, p_tenant text)
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
comment on function jq.jq_tenant_policy_delete(text, text) is
    'Drop the policy row of (queue or *, tenant or * or null for no tenant); true when one existed. The tenant falls back to weight 1 and no cap (or a less specific row).';

-- Every policy row, for admins and dashboards (pyjq.tenant_policies).
create or replace function jq.jq_tenant_policies()
returns table (queue text, tenant text, weight integer, max_running integer, updated_at timestamptz)
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select t.queue, nullif(t.tenant, ''), t.weight, t.max_running, t.updated_at
      from jq.tenant_policies t
     order by t.queue, t.tenant
$$;
comment on function jq.jq_tenant_policies() is
    'Every tenant policy row: (queue, tenant, weight, max_running, updated_at); tenant null is jobs without a tenant, * a default.';

-- How many jobs of one type that share a concurrency_key may run at once.
create or replace function jq.jq_key_limit_set(p_type text, p_max_running integer)
returns table (type text, max_running integer)
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
comment on function jq.jq_key_limit_set(text, integer) is
    'Let up to max_running jobs of a type that share one concurrency_key run at once (default 1): (type, max_running) -> the row.';

-- Drops a type's key limit (admins): back to one running job per key.
create or replace function jq.jq_key_limit_delete(p_type text)
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
declare
    v_found boolean;
begin
    perform jq._check_not_null(p_type, 'type');
    delete from jq.key_limits k where k.type = p_type;
    get diagnostics v_found = row_count;
    return jq._audited_found('key_limit_delete', jsonb_build_object('type', p_type), v_found);
end
$$;
comment on function jq.jq_key_limit_delete(text) is
    'Drop the key limit of a type (back to 1 running job per concurrency_key); true when one existed.';

-- Fair (the default) or plain FIFO claiming for one queue.
create or replace function jq.jq_queue_set_fair(p_queue text, p_fair boolean)
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
    perform jq._check_queue(p_queue);
    perform jq._check_not_null(p_fair, 'fair', 'true: tenants take turns (default); false: plain FIFO by priority then run_at.');
    insert into jq.queue_settings as s (queue, fair, updated_at) values (p_queue, p_fair, now())
    on conflict on constraint queue_settings_pkey do update
       set fair = excluded.fair, updated_at = excluded.updated_at;
    perform jq._audit('queue_set_fair', jsonb_build_object('queue', p_queue, 'fair', p_fair), 1);
    return p_fair;
end
$$;
comment on function jq.jq_queue_set_fair(text, boolean) is
    'Choose how jq_claim orders a queue: (queue, fair) with fair true = tenants take turns within a priority (default), false = plain FIFO by priority then run_at. Caps apply either way.';

-- Per (queue, tenant) with live jobs: ready, scheduled and running counts,
-- the policy in force and the lane's pass. Reads all of jq.jobs, like jq_stats.
create or replace function jq.jq_tenants(p_queue text default null)
returns table (queue text, tenant text, ready bigint, scheduled bigint, running bigint,
               weight integer, max_running integer, served bigint)
language sql
volatile  -- reads jq.jobs: locks its partitions before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
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
comment on function jq.jq_tenants(text) is
    'Per (queue, tenant) with live jobs (queue or null for all): ready, scheduled, running, the weight and max_running in force, and jobs served while tenants shared the queue.';
