-- Migration 5 (release 0.4.0): the test clock is opt-in, stored input is bounded.
--
--   jq.settings gains
--     allow_test_clock   false by default: jq._now() ignores the session
--                        setting jq.now unless this is true. Only the schema
--                        owner (or a superuser) may turn it on: any role can
--                        set a custom setting in its own session, and a moved
--                        clock steals live leases, reopens idempotency windows
--                        and makes jq_maintain drop current history.
--     max_payload_bytes  a payload's size as stored (jsonb), default 1 MiB
--     max_payload_depth  how deeply a payload's objects/arrays nest, default 64
--     max_error_length   characters of error text kept per attempt, default
--                        8000 (as 0.3.0 kept); longer text is cut and marked, never refused
do $migration$
begin
if not jq._migration_pending(5) then
    return;
end if;

alter table jq.settings
    add column allow_test_clock  boolean not null default false,
    add column max_payload_bytes integer not null default 1048576,
    add column max_payload_depth integer not null default 64,
    add column max_error_length  integer not null default 8000,
    add constraint settings_max_payload_bytes_range check (max_payload_bytes between 1024 and 268435456),
    add constraint settings_max_payload_depth_range check (max_payload_depth between 1 and 10000),
    add constraint settings_max_error_length_range check (max_error_length between 256 and 1048576);
comment on table jq.settings is
    'One row of tunables: idempotency window, history retention and premade days, default max_attempts, input bounds (payload bytes and depth, error length), and whether the test clock (jq.now) is honoured.';

insert into jq.migrations (version, release, name) values (5, '0.4.0', 'bounds_and_clock');
end
$migration$;
