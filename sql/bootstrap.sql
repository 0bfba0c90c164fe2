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

-- The release this installer installs: the one place its number is written.
-- record_release.sql stores it in jq.release at the end of the install, where
-- jq_version() reads it; the guard below compares it with the database's.
do $release$ begin perform set_config('jq.installer_release', '0.6.0', true); end $release$;

-- A release number as something that sorts: '0.10.1' -> {0,10,1}.
create or replace function jq._release_order(p_release text)
returns integer[]
language sql
immutable
as $$
    select string_to_array(p_release, '.')::integer[]
$$;

-- Refuse to run an older installer over a newer jq (JQ001): its functions
-- would not match the tables, or would undo a newer release's fixes. The
-- database's release is jq.release (0.4.0 on), or the newest release in the
-- migration ledger (older installs, and a migration recorded by hand).
-- Remembers it for record_release.sql's report.
do $bootstrap$
declare
    v_installer text := current_setting('jq.installer_release');
    v_installed text;
begin
    select r into v_installed
      from (select m.release as r from jq.migrations m) known
     order by jq._release_order(r) desc
     limit 1;
    if to_regclass('jq.release') is not null then
        select r into v_installed
          from (select v_installed as r union all select x.release from jq.release x) known
         where r is not null
         order by jq._release_order(r) desc
         limit 1;
    end if;
    if jq._release_order(v_installed) > jq._release_order(v_installer) then
        raise exception 'jq % is installed; this installer is the older release %', v_installed, v_installer
            using errcode = 'JQ001',
                  hint = 'Install the jq release that matches the database, or a newer one.';
    end if;
    perform set_config('jq.installed_release', coalesce(v_installed, ''), true);
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
