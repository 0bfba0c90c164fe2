-- Migration 10 (release 0.5.0): job results.
--
--   jq.job_history gains
--     result             what the handler returned, as JSON (null when it
--                        returned nothing); written by jq_complete in the
--                        same insert as the history row, kept as long as the
--                        row (settings.history_retention).
--   jq.settings gains
--     max_result_bytes   the largest result jq_complete stores, in bytes of
--                        its JSON text as PostgreSQL prints it (jsonb::text);
--                        64 KiB by default, 0 (no results at all) to 1 MiB.
--                        A larger one is refused (54000), so workers check it
--                        first (jq_limits) and fail that attempt instead.
--   jq_complete gains p_results (jsonb[], parallel to p_job_ids) and
--   jq_status the result column: their old forms are dropped here and
--   recreated by functions/finish.sql and functions/lookup.sql.
do $migration$
begin
if not jq._migration_pending(10) then
    return;
end if;

alter table jq.job_history add column result jsonb;
comment on column jq.job_history.result is
    'What the handler returned (jq_complete''s p_results), null when it returned nothing.';

alter table jq.settings
    add column max_result_bytes integer not null default 65536,
    add constraint settings_max_result_bytes_range check (max_result_bytes between 0 and 1048576);
comment on table jq.settings is
    'One row of tunables: idempotency window, history retention and premade days, default max_attempts, input bounds (payload bytes and depth, error length, result bytes), how long a silent worker is gone after, and whether the test clock (jq.now) is honoured.';

drop function if exists jq.jq_complete(uuid[], text);
drop function if exists jq.jq_status(uuid);
drop function if exists jq._retire_jobs(uuid[], text, text, timestamptz, text);

insert into jq.migrations (version, release, name) values (10, '0.5.0', 'job_results');
end
$migration$;
