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

-- Takes ACCESS EXCLUSIVE locks on every table of schema jq (partitions
-- through their parents), in name order, all in one try or none: a try that
-- is not done within jq.install_lock_try (default 20 ms) gives back what it
-- took and the next one starts after a pause, until jq.install_lock_wait
-- (default 60 s) has passed. An application call therefore waits for the
-- installer at most one try, or the installer's work once it holds them all,
-- and never behind a half-done install that waits for something else. Does
-- nothing when this transaction holds them already. Called before anything
-- in the install that would lock a table applications use; from then on,
-- function bodies are not checked as they are created (see below).
create or replace function jq._install_lock_tables()
returns void
language plpgsql
volatile
as $$
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

-- The other sessions holding locks on jq's tables, for the installer's
-- messages: pid, application, state and transaction age of each.
create or replace function jq._install_lock_holders()
returns text
language sql
volatile
as $$
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

-- Applies a migration at most once: the body runs only when the version is
-- missing from the ledger, and the ledger row is written in the same
-- transaction as the change. A pending migration first takes the install's
-- table locks (jq._install_lock_tables), so that no migration ever waits for
-- a lock while holding others.
create or replace function jq._migration_pending(p_version integer)
returns boolean
language plpgsql
volatile
as $$
begin
    if exists (select 1 from jq.migrations where version = p_version) then
        return false;
    end if;
    perform jq._install_lock_tables();
    return true;
end
$$;
