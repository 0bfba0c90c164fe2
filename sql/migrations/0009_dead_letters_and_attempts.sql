-- Migration 9 (release 0.5.0): dead-letter retention, audit retention and
-- per-attempt errors.
--
--   jq.settings gains
--     dead_retention     how long a dead job is kept (by failed_at) before
--                        jq_maintain deletes it; 30 days by default, 1 hour
--                        to 10 years.
--     audit_retention    how long an audit row is kept (by at); 90 days by
--                        default, 1 hour to 10 years, null = forever.
--   jq.jobs,
--   jq.dead_jobs,
--   jq.job_history gain  attempt_log: the job's last 10 failed attempts as a
--                        jsonb array of {"attempt", "at", "worker", "error"}
--                        (error cut to its head and tail, 2,000 characters),
--                        appended by jq_fail in the UPDATE it runs anyway and
--                        carried along when the job moves; read by
--                        jq_job_attempts. Null for a job that never failed
--                        and for jobs written by 0.4.0 (their last_error
--                        stands for the last attempt).
--   jq_dead_groups       gains p_error (the matching jq_retry_dead applies):
--                        the old two-argument signature is dropped.
do $migration$
begin
if not jq._migration_pending(9) then
    return;
end if;

alter table jq.settings
    add column dead_retention interval not null default '30 days',
    add column audit_retention interval default '90 days',
    add constraint settings_dead_retention_range
        check (dead_retention between interval '1 hour' and interval '10 years'),
    add constraint settings_audit_retention_range
        check (audit_retention between interval '1 hour' and interval '10 years');
comment on table jq.settings is
    'One row of tunables: idempotency window, history retention and premade days, default max_attempts, input bounds (payload bytes and depth, error length), how long a silent worker is gone after, dead-job and audit retention, and whether the test clock (jq.now) is honoured.';

alter table jq.jobs add column attempt_log jsonb;
alter table jq.dead_jobs add column attempt_log jsonb;
alter table jq.job_history add column attempt_log jsonb;

drop function if exists jq.jq_dead_groups(timestamptz, text);

insert into jq.migrations (version, release, name) values (9, '0.5.0', 'dead_letters_and_attempts');
end
$migration$;
