-- Migration 3 (release 0.3.0): fair claiming across tenants, concurrency caps.
--
--   jq.jobs              gains deferred (a pending job not due yet, outside
--                        the claim index until it falls due) and
--                        concurrency_key: jobs of one type sharing a key
--                        run at most jq.key_limits.max_running at a time
--                        (1 when the type has no row); jq.dead_jobs keeps it
--   jobs_claim_idx       becomes (queue, priority desc, tenant, run_at): the
--                        claim walks the distinct (priority, tenant) groups of
--                        a queue with one index probe each, then reads each
--                        group's oldest jobs, so its cost follows the number
--                        of tenants, never the backlog of the largest one
--   jq.tenant_policies   optional weight (shares) and max_running per
--                        (queue, tenant), '*' for any queue or any tenant
--   jq.fair_lanes        per (queue, tenant) virtual time of the service the
--                        tenant has had (claim-time state, never enqueue-time)
--   jq.key_limits        max_running per concurrency key of a type
--   jq.queue_settings    per queue: fair (default) or plain FIFO claiming
do $migration$
begin
if not jq._migration_pending(3) then
    return;
end if;

alter table jq.jobs add column concurrency_key text;
alter table jq.jobs add constraint jobs_concurrency_key_length
    check (char_length(concurrency_key) between 1 and 255);
alter table jq.dead_jobs add column concurrency_key text;
alter table jq.dead_jobs add constraint dead_jobs_concurrency_key_length
    check (char_length(concurrency_key) between 1 and 255);

-- jq_enqueue gains p_concurrency_key at the end. A second overload would make
-- every positional call ambiguous, so the old signature goes.
drop function if exists jq.jq_enqueue(text, jsonb, text, integer, timestamptz, integer, text, text);

-- deferred: pending with a run_at still to come when the row was written
-- (scheduled, waiting for a retry). Such rows stay out of the claim index
-- until jq_claim promotes them when they fall due: the claim walks one index
-- probe per (priority, tenant) group, and 10,000 tenants each holding a job
-- for tomorrow must not cost every claim 10,000 probes.
alter table jq.jobs add column deferred boolean not null default false;
update jq.jobs set deferred = true where status = 'pending' and run_at > now();

-- Jobs without a tenant are the group '' (a tenant name is never empty).
-- The groups of a queue are walked in index order, so the index must hold
-- exactly the expression the claim compares.
drop index jq.jobs_claim_idx;
create index jobs_claim_idx on jq.jobs (queue, priority desc, (coalesce(tenant, '')), run_at)
    where status = 'pending' and not deferred;
-- Deferred jobs by priority and due time, for the promotion at the start of
-- each claim (highest priority first, then the longest due).
create index jobs_deferred_idx on jq.jobs (queue, priority desc, run_at) where status = 'pending' and deferred;
-- Running jobs per tenant and per concurrency key, counted by the claim when
-- a cap applies (never more than the cap is read). Every claim writes these
-- entries, so jobs without a tenant or key stay out: a cap on the no-tenant
-- lane is counted from jobs_lease_idx instead.
create index jobs_running_tenant_idx on jq.jobs (queue, tenant) where status = 'processing' and tenant is not null;
create index jobs_running_key_idx on jq.jobs (type, concurrency_key)
    where status = 'processing' and concurrency_key is not null;

create table jq.tenant_policies (
    queue       text not null,
    tenant      text not null,
    weight      integer,
    max_running integer,
    updated_at  timestamptz not null default now(),
    primary key (queue, tenant),
    constraint tenant_policies_queue_format check (queue = '*' or jq._is_queue_name(queue)),
    constraint tenant_policies_tenant_length check (char_length(tenant) <= 128),
    constraint tenant_policies_weight_range check (weight between 1 and 1000),
    constraint tenant_policies_max_running_range check (max_running between 0 and 1000000),
    constraint tenant_policies_not_empty check (weight is not null or max_running is not null)
);
comment on table jq.tenant_policies is
    'Optional per-tenant weight (shares of a queue) and max_running (cap on running jobs) per (queue, tenant); queue or tenant ''*'' is the default for any; tenant '''' is jobs without a tenant. Written by jq_tenant_policy_set.';

-- Claim-time bookkeeping, rewritten by claims that choose between tenants:
-- HOT updates on a small table.
create table jq.fair_lanes (
    queue      text not null,
    tenant     text not null,
    pass       double precision not null,
    last_share double precision not null,
    served     bigint not null,
    updated_at timestamptz not null,
    primary key (queue, tenant)
) with (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000);
comment on table jq.fair_lanes is
    'Per (queue, tenant) virtual time of the service a tenant had (pass: +1/weight per claimed job); jq_claim serves the tenant with the lowest pass first. Idle lanes are purged by jq_maintain.';

create table jq.key_limits (
    type        text primary key,
    max_running integer not null,
    updated_at  timestamptz not null default now(),
    constraint key_limits_type_length check (char_length(type) between 1 and 128),
    constraint key_limits_max_running_range check (max_running between 1 and 1000000)
);
comment on table jq.key_limits is
    'Per job type: how many jobs sharing one concurrency_key may run at once (1 when the type has no row). Written by jq_key_limit_set.';

create table jq.queue_settings (
    queue      text primary key,
    fair       boolean not null default true,
    updated_at timestamptz not null default now(),
    constraint queue_settings_queue_format check (jq._is_queue_name(queue))
);
comment on table jq.queue_settings is
    'Per queue: fair (tenants take turns, the default) or plain FIFO claiming. Written by jq_queue_set_fair.';

insert into jq.migrations (version, release, name) values (3, '0.3.0', 'fairness');
end
$migration$;
