-- jq_tick: the one periodic call a deployment makes (docs/worker.md,
-- docs/operations.md). pyjq workers call it in a loop and sleep what it
-- answers; a deployment without pyjq runs the same loop in any language, or
-- from pg_cron.
--
-- Each call does a bounded step of every periodic duty that is due: the
-- storage rotation (jq._storage_rotate, sql/functions/storage.sql), the
-- maintenance every settings.maintain_interval (jq_maintain: history
-- partitions ahead and retention, expired idempotency keys, gone workers and
-- expired leases, dead-letter and audit retention) and the schedules that
-- are due. One session ticks at a time (an advisory lock), and a call before
-- the time the last one asked for (the sequence jq.tick_due) is answered at
-- once, so any number of workers calling it cost about one tick.
create or replace function jq.jq_tick()
returns table(call_again_after interval, account jsonb)
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
set standard_conforming_strings = on
set constraint_exclusion = off
as $$
declare
    v_settings jq.settings;
    v_rotation record;
    v_account  jsonb;
    v_again    interval;
    v_due      timestamptz;
    v_wait     interval;
    v_fired    integer;
begin
    if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'jq_tick needs READ COMMITTED, not %', current_setting('transaction_isolation')
              using errcode = '25001',
                    hint = 'Call it outside an explicit transaction: a snapshot older than its locks would miss rows it must move.';
    end if;
    v_wait := (pg_sequence_last_value('jq.tick_due'::regclass) - floor(extract(epoch from clock_timestamp()) * 1000))
              * interval '1 millisecond';
    if v_wait > interval '0' then
        return query select v_wait, jsonb_build_object('ran', false);
        return;
    end if;
    select * into v_settings from jq.settings;
    if not pg_try_advisory_xact_lock(hashtext('jq.tick')) then
        return query select v_settings.tick_interval, jsonb_build_object('ran', false);
        return;
    end if;

    -- Schedules first: their firing may take a while, and the rotation's
    -- locks are held until this call commits.
    v_fired := jq.jq_schedules_fire_due(v_settings.schedule_fire_batch);

    select * into v_rotation from jq._storage_rotate(v_settings);
    v_account := v_rotation.account;
    v_again := coalesce(v_rotation.call_again_after, v_settings.maintain_interval);
    if v_fired >= v_settings.schedule_fire_batch then
        v_again := interval '0';  -- more schedules may be due
    end if;
    if v_fired > 0 then
        v_account := v_account || jsonb_build_object('schedule_jobs', v_fired);
    end if;

    -- The maintenance waits for a call that holds no partition lock: claims
    -- would wait for its whole length.
    select t.maintained_at + v_settings.maintain_interval into v_due from jq.tick_state t;
    if v_due is null or v_due <= clock_timestamp() then
        if v_rotation.holding then
            v_again := interval '0';
        else
            v_account := v_account || jsonb_build_object('maintenance', jq.jq_maintain());
            update jq.tick_state t set maintained_at = clock_timestamp();
            v_due := clock_timestamp() + v_settings.maintain_interval;
        end if;
    end if;
    v_again := least(v_again, greatest(interval '0', v_due - clock_timestamp()),
                     (select min(s.next_run_at) - jq._now() from jq.schedules s where s.enabled));  -- least skips a null
    v_again := greatest(v_again, interval '0');
    perform setval('jq.tick_due', floor(extract(epoch from clock_timestamp() + v_again) * 1000)::bigint);

    return query select v_again, v_account || jsonb_build_object('ran', true);
end
$$;
comment on function jq.jq_tick() is
    'Does a bounded step of every periodic duty that is due (storage rotation, maintenance, schedules) -> (call_again_after, account of what it did). Call it in a loop from any number of sessions, outside an explicit transaction, sleeping call_again_after between calls.';
