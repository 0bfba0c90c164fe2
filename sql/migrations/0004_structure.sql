-- Migration 4 (release 0.4.0): one home per rule, the release recorded.
--
--   *_queue_format       the CHECK constraints of jq.jobs, jq.dead_jobs,
--                        jq.schedules, jq.tenant_policies and
--                        jq.queue_settings call jq._is_queue_name instead of
--                        spelling the rule out (databases installed before
--                        0.4.0 had it inline; a fresh install gets the same
--                        definition from migrations 1 and 3 and re-adds it
--                        here unchanged)
--   jq.release           the installed release, one row written by every
--                        install (record_release.sql) and read by
--                        jq_version(), so a release that changes only
--                        functions reports its own number
--   jq.claim_group,      the claim's state between its named steps
--   jq.claim_job         (sql/functions/claim_steps.sql)
--   functions of 0.3.0   that no longer exist are dropped
do $migration$
begin
if not jq._migration_pending(4) then
    return;
end if;

alter table jq.jobs drop constraint jobs_queue_format,
    add constraint jobs_queue_format check (jq._is_queue_name(queue));
alter table jq.dead_jobs drop constraint dead_jobs_queue_format,
    add constraint dead_jobs_queue_format check (jq._is_queue_name(queue));
alter table jq.schedules drop constraint schedules_queue_format,
    add constraint schedules_queue_format check (jq._is_queue_name(queue));
alter table jq.tenant_policies drop constraint tenant_policies_queue_format,
    add constraint tenant_policies_queue_format check (queue = '*' or jq._is_queue_name(queue));
alter table jq.queue_settings drop constraint queue_settings_queue_format,
    add constraint queue_settings_queue_format check (jq._is_queue_name(queue));

create table jq.release (
    singleton    boolean primary key default true,
    release      text not null,
    installed_at timestamptz not null,
    constraint release_singleton check (singleton)
);
comment on table jq.release is
    'The installed jq release (jq_version()) and when it was installed; written by the installer.';

-- Replaced by jq._check_queue and jq._take_idempotency_keys.
drop function if exists jq._check_policy_queue(text, boolean);
drop function if exists jq._take_idempotency_key(text, text, uuid, timestamptz);

-- The claim's state between its steps (sql/functions/claim_steps.sql): one
-- row per ready (priority, tenant) group, and one per job taken. A type
-- cannot be replaced while functions use it: a later change needs a
-- migration (drop the steps, alter or recreate the type, reinstall).
create type jq.claim_group as (
    priority     smallint,
    tkey         text,              -- coalesce(tenant, ''): jobs without a tenant are one tenant
    first_run_at timestamptz,       -- the group's oldest ready job
    open         boolean,           -- may still yield jobs (false once it ran dry)
    -- the tenant's figures, the same on each of its groups:
    weight       integer,           -- its shares (jq.tenant_policies; 1 by default)
    room         integer,           -- jobs its cap lets this claim start (got counts against it); null: no cap
    pass         double precision,  -- its lane's pass in jq.fair_lanes; null: no lane
    eff          double precision,  -- where it stands in this claim (0 unless fair and shared)
    got          integer,           -- jobs it has been given in this claim so far
    quota        integer);          -- jobs the group is to yield this round (quota rows only)
create type jq.claim_job as (
    ctid            tid,            -- locked FOR UPDATE by this claim, so it cannot move
    type            text,
    concurrency_key text,
    priority        smallint,       -- the group it came from
    tkey            text);

insert into jq.migrations (version, release, name) values (4, '0.4.0', 'structure');
end
$migration$;
