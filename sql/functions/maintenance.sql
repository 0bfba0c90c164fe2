-- Maintenance: history partition rotation, key purging, lease reaping.
-- jq_tick calls jq_maintain every settings.maintain_interval; 0.5.0 workers
-- call it themselves. Many may call it at once: one does the work.

-- Creates the day partitions of jq.job_history from today (UTC) to
-- settings.history_premake_days ahead. Rows that landed in the default
-- partition for such a day are moved into it first, so attaching never fails.
-- Attaching locks the default partition: when a completion holds it, the
-- day waits for the next call rather than have completions queue behind us.
create or replace function jq._make_history_partitions(p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_day     date;
    v_name    text;
    v_from    timestamptz;
    v_to      timestamptz;
    v_created integer := 0;
begin
    for v_day in
        select generate_series((p_now at time zone 'UTC')::date,
                               (p_now at time zone 'UTC')::date + s.history_premake_days,
                               interval '1 day')::date
          from jq.settings s
    loop
        v_name := 'job_history_p' || to_char(v_day, 'YYYYMMDD');
        continue when to_regclass('jq.' || v_name) is not null;
        exit when not jq._try_lock('jq.job_history_default', 'access exclusive', (select s.tick_lock_wait from jq.settings s));
        v_from := v_day::timestamp at time zone 'UTC';
        v_to := (v_day + 1)::timestamp at time zone 'UTC';
        execute format('create table jq.%I (like jq.job_history including defaults including constraints)', v_name);
        execute format('with moved as (delete from jq.job_history_default where finished_at >= %L and finished_at < %L returning *) insert into jq.%I select * from moved',
                       v_from, v_to, v_name);
        execute format('alter table jq.job_history attach partition jq.%I for values from (%L) to (%L)',
                       v_name, v_from, v_to);
        v_created := v_created + 1;
    end loop;
    return v_created;
end
$$;

-- Drops day partitions (and default-partition rows) older than
-- settings.history_retention. Dropping one locks jq.job_history, which every
-- completion writes: when one holds it, the drop waits for the next call.
create or replace function jq._drop_history_partitions(p_now timestamptz)
returns integer
language plpgsql
as $$
declare
    v_cutoff  timestamptz := p_now - (select history_retention from jq.settings);
    v_name    text;
    v_dropped integer := 0;
begin
    for v_name in
        select c.relname
          from pg_inherits i
          join pg_class c on c.oid = i.inhrelid
         where i.inhparent = 'jq.job_history'::regclass
           and c.relname ~ '^job_history_p\d{8}$'
           and (to_date(substr(c.relname, 14), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' <= v_cutoff
         order by c.relname
    loop
        exit when not jq._try_lock('jq.job_history', 'access exclusive', (select s.tick_lock_wait from jq.settings s));
        execute format('drop table jq.%I', v_name);
        v_dropped := v_dropped + 1;
    end loop;
    delete from jq.job_history_default where finished_at < v_cutoff;
    return v_dropped;
end
$$;

-- Deletes dead jobs failed longer than settings.dead_retention ago and audit
-- rows older than settings.audit_retention (null: kept forever), oldest
-- first and at most 10,000 of each per call, so one call never holds many
-- locks; a backlog drains over the next calls. Dead jobs are found by
-- dead_jobs_failed_at_idx, audit rows by audit_log_at_idx; dead jobs locked
-- by a retry are left for next time.
create or replace function jq._purge_past_retention(
    p_now timestamptz, out dead_purged integer, out audit_purged integer)
language plpgsql
as $$
declare
    v_settings jq.settings;
begin
    select * into v_settings from jq.settings;
    delete from jq.dead_jobs d
     where d.id in (select x.id from jq.dead_jobs x
                     where x.failed_at < p_now - v_settings.dead_retention
                     order by x.failed_at
                     limit 10000
                       for update skip locked);
    get diagnostics dead_purged = row_count;
    delete from jq.audit_log a
     where a.id in (select x.id from jq.audit_log x
                     where x.at < p_now - v_settings.audit_retention
                     order by x.at
                     limit 10000);
    get diagnostics audit_purged = row_count;
end
$$;

-- Rotates history partitions, purges idempotency keys whose window is over
-- and whose job is gone, forgets waiting marks of vanished workers and fair
-- lanes idle for a day, declares workers gone silent gone (their jobs back
-- to the queue at once) and forgets those gone for an hour, reaps
-- expired leases in every queue, and deletes dead jobs and audit rows past
-- their retention (jq._purge_past_retention). Only one
-- caller does the work at a time; the others return at once with
-- {"skipped": true}. Returns what it did as JSON.
create or replace function jq.jq_maintain()
returns jsonb
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
    v_now     timestamptz := jq._now();
    v_created integer;
    v_dropped integer;
    v_purged  integer;
    v_reaped  integer := 0;
    v_lanes   integer;
    v_rescued integer;
    v_workers integer;
    v_queue   text;
    v_expired record;  -- dead jobs and audit rows past retention
begin
    if not pg_try_advisory_xact_lock(hashtext('jq.maintain')) then
        return jsonb_build_object('skipped', true);
    end if;

    -- Drop before creating: dropping a partition takes an ACCESS EXCLUSIVE
    -- lock on jq.job_history, attaching one locks the default partition. Taken
    -- the other way round, a completion routed to the default partition (it
    -- holds job_history, waits for the default) deadlocks with us.
    v_dropped := jq._drop_history_partitions(v_now);
    v_created := jq._make_history_partitions(v_now);

    with expired as (
        select k.queue, k.idempotency_key
          from jq.idempotency_keys k
         where k.expires_at <= v_now
           and not exists (select 1 from jq.jobs j where j.id = k.job_id)
         limit 50000
    )
    delete from jq.idempotency_keys k
     using expired e
     where k.queue = e.queue and k.idempotency_key = e.idempotency_key;
    get diagnostics v_purged = row_count;

    -- Waiting marks of workers whose connection is gone (crashed, killed).
    delete from jq.queue_waiters w
     where not exists (select 1 from pg_stat_activity a where a.pid = w.backend_pid);

    -- Fair lanes idle for a day: a tenant that comes back starts level with
    -- the others anyway, so its old pass is of no use. Locked lanes (a claim
    -- is writing them) are left for next time.
    delete from jq.fair_lanes l
     where l.ctid in (select f.ctid from jq.fair_lanes f
                       where f.updated_at < v_now - interval '1 day'
                       limit 10000
                         for update skip locked);
    get diagnostics v_lanes = row_count;

    -- Workers gone silent: their jobs back at once (sql/functions/workers.sql);
    -- registrations declared gone an hour ago are forgotten.
    v_rescued := jq._rescue_gone_workers(v_now);
    delete from jq.workers w where w.gone_at < v_now - interval '1 hour';
    get diagnostics v_workers = row_count;

    for v_queue in
        select distinct j.queue from jq.jobs j where j.status = 'processing' and j.locked_until < v_now
    loop
        v_reaped := v_reaped + jq._reap_expired(v_queue, v_now);
    end loop;

    select * into v_expired from jq._purge_past_retention(v_now);

    return jsonb_build_object(
        'skipped', false,
        'partitions_created', v_created,
        'partitions_dropped', v_dropped,
        'keys_purged', v_purged,
        'leases_reaped', v_reaped,
        'lanes_purged', v_lanes,
        'jobs_rescued', v_rescued,
        'workers_purged', v_workers,
        'dead_purged', v_expired.dead_purged,
        'audit_purged', v_expired.audit_purged);
end
$$;
comment on function jq.jq_maintain() is
    'Housekeeping, safe from many workers at once: create history partitions ahead, drop those past retention, purge expired idempotency keys, declare silent workers gone and requeue their jobs, reap expired leases, forget fair lanes idle for a day and workers gone for an hour, delete dead jobs past dead_retention and audit rows past audit_retention (10,000 each per call). -> jsonb summary.';

-- The installed release, as the installer recorded it in jq.release (the
-- number itself is set once, in bootstrap.sql). Clients and the installer's
-- downgrade guard read it.
create or replace function jq.jq_version()
returns text
language sql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
    select r.release from jq.release r
$$;
comment on function jq.jq_version() is 'The installed jq release, e.g. 0.5.0.';

-- Every install makes sure today's history partitions exist. Making one
-- locks jq.job_history's default partition, so the install takes its table
-- locks first (jq._install_lock_tables, sql/bootstrap.sql) when one is missing.
do $partitions$
begin
    if exists (select 1
                 from jq.settings s,
                      generate_series((now() at time zone 'UTC')::date,
                                      (now() at time zone 'UTC')::date + s.history_premake_days, interval '1 day') d
                where to_regclass('jq.job_history_p' || to_char(d, 'YYYYMMDD')) is null) then
        perform jq._install_lock_tables();
    end if;
    perform jq._make_history_partitions(now());
end
$partitions$;
