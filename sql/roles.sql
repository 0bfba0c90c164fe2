-- Roles and grants, re-applied on every install.
--
--   jq_producer  enqueue, status, cancel, limits
--   jq_worker    claim, complete, fail, heartbeat, release, set_waiting,
--                the registry (worker_register, worker_beat,
--                worker_deregister), tick and maintain, storage, stats, unhandled_types, and firing schedules (schedules_fire_due,
--                and the schedules_due and schedules_fire of 0.5.0's scheduler), limits
--   jq_admin     everything: the above, listing workers (jq_workers),
--                dead-letter operations, managing
--                schedules (schedule_put/_delete/_pause/_resume, schedules, cron_slots),
--                and read access to the tables
--
-- The public functions are SECURITY DEFINER, so producers and workers need
-- no table privileges at all. Grant one of these roles to an application
-- role:  grant jq_producer to my_app;

do $roles$
declare
    v_role text;
begin
    foreach v_role in array array['jq_producer', 'jq_worker', 'jq_admin'] loop
        if not exists (select 1 from pg_roles where rolname = v_role) then
            begin
                execute format('create role %I nologin', v_role);
            exception when duplicate_object or unique_violation then
                null;  -- another database's installer created it just now
            end;
        end if;
    end loop;
end
$roles$;

revoke all on all functions in schema jq from public;
revoke all on all tables in schema jq from public;
grant usage on schema jq to jq_producer, jq_worker, jq_admin;

grant execute on function
    jq.jq_enqueue(text, jsonb, text, integer, timestamptz, integer, text, text, text, jsonb),
    jq.jq_enqueue_many(jsonb),
    jq.jq_status(uuid),
    jq.jq_cancel(uuid),
    jq.jq_version(),
    jq.jq_limits()
to jq_producer;

grant execute on function
    jq.jq_claim(text, text, integer, interval, text[]),
    jq.jq_complete(uuid[], text, jsonb[]),
    jq.jq_fail(uuid, text, text, interval, boolean),
    jq.jq_heartbeat(uuid[], text, interval),
    jq.jq_release(uuid[], text),
    jq.jq_set_waiting(text[], text, boolean),
    jq.jq_worker_register(text, jsonb, text, integer, text, text[]),
    jq.jq_worker_beat(text),
    jq.jq_worker_deregister(text),
    jq.jq_maintain(),
    jq.jq_stats(),
    jq.jq_status(uuid),
    jq.jq_version(),
    jq.jq_schedules_due(integer),
    jq.jq_schedules_fire(text[], timestamptz[], timestamptz[], timestamptz[]),
    jq.jq_schedules_fire_due(integer),
    jq.jq_limits(),
    jq.jq_unhandled_types(),
    jq.jq_tick(),
    jq.jq_storage()
to jq_worker;
-- A worker's handler may read its job's earlier attempts; producers see only last_error (jq_status).
grant execute on function jq.jq_job_attempts(uuid) to jq_worker;

grant execute on all functions in schema jq to jq_admin;
grant select on all tables in schema jq to jq_admin;
-- How many times the current generation changed (read only: nextval needs usage or update).
grant select on sequence jq.storage_turns to jq_admin;
-- Every tunable but allow_test_clock, which only the owner may turn on (jq._now()).
revoke update on jq.settings from jq_admin;
grant update (idempotency_window, history_retention, history_premake_days, default_max_attempts,
              max_payload_bytes, max_payload_depth, max_error_length)
    on jq.settings to jq_admin;
grant update (dead_retention, audit_retention) on jq.settings to jq_admin;
grant update (max_result_bytes) on jq.settings to jq_admin;
grant update (rotate_storage, waiting_horizon, rotation_turn_after, rotation_turn_bytes, rotation_min_bytes,
              rotation_move_batch, rotation_move_limit, rotation_backlog_wait, tick_lock_wait, tick_interval,
              maintain_interval)
    on jq.settings to jq_admin;
grant update (schedule_fire_batch, schedule_missed_grace) on jq.settings to jq_admin;
