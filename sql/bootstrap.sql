-- Bootstrap: the schema, the advisory lock that serialises installers, and
-- the ledger of applied migrations. Runs first, on every install.

-- Two installers racing: the second waits here until the first commits, then
-- finds every migration already in the ledger.
set local client_min_messages = warning;
do $lock$ begin perform pg_advisory_xact_lock(hashtext('jq.install')); end $lock$;

create schema if not exists jq;
comment on schema jq is 'jq: a background job queue in PostgreSQL. Public API: the jq.jq_* functions.';

create table if not exists jq.migrations (
    version    integer primary key,
    release    text not null,
    name       text not null,
    applied_at timestamptz not null default now()
);
comment on table jq.migrations is 'Ledger of applied jq schema migrations; the highest release is jq_version().';

-- Refuse to run an older installer over a newer schema: its functions would
-- not match the tables.
do $bootstrap$
declare
    v_newest integer;
begin
    select max(version) into v_newest from jq.migrations;
    -- The number below is the newest migration this installer knows.
    if v_newest > 5 then
        raise exception 'jq schema version % is newer than this installer (knows up to 5)', v_newest
            using errcode = 'JQ001',
                  hint = 'Install the jq release that matches the database, or a newer one.';
    end if;
end
$bootstrap$;

-- Applies a migration at most once: the body runs only when the version is
-- missing from the ledger, and the ledger row is written in the same
-- transaction as the change.
create or replace function jq._migration_pending(p_version integer)
returns boolean
language sql
stable
as $$
    select not exists (select 1 from jq.migrations where version = p_version)
$$;
