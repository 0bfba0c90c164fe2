-- jq installer: psql -v ON_ERROR_STOP=1 -f sql/install.sql
--
-- Installs schema `jq` into an empty database, upgrades an older jq in place
-- (every job kept), and changes nothing when run again. Everything happens in
-- one transaction behind an advisory lock, so two installers racing each other
-- apply each migration exactly once. The first pending migration takes every
-- table lock the rest of the install needs, all at once in short tries
-- (jq._install_lock_tables in bootstrap.sql), so applications running
-- meanwhile wait for it briefly and never deadlock with it; an install with
-- nothing to migrate takes no lock they wait for.
--
-- Order: bootstrap (schema, ledger, lock) -> argument checks (the
-- constraints of the migrations call jq._is_queue_name) and the storage
-- generation (jq.jobs.generation's default calls it) -> numbered
-- migrations (tables, indexes; each applied once and recorded in
-- jq.migrations) -> functions (CREATE OR REPLACE, every run) -> roles and
-- grants -> record_release.sql (stores the release, prints one line:
-- installed / upgraded from -> to / up to date). The release number is set
-- once, at the top of bootstrap.sql.
--
-- pyjq.install(conn) runs this same file: it understands only the meta-commands
-- used here (\set, \ir, the closing \gset and \echo of the report) and
-- begin/commit, so keep to them.
\set ON_ERROR_STOP on
\set QUIET on
begin;
\ir bootstrap.sql
\ir functions/checks.sql
\ir functions/storage_generation.sql
\ir migrations/0001_initial.sql
\ir migrations/0002_schedules.sql
\ir migrations/0003_fairness.sql
\ir migrations/0004_structure.sql
\ir migrations/0005_bounds_and_clock.sql
\ir migrations/0006_workers.sql
\ir migrations/0007_audit_log.sql
\ir migrations/0008_queue_pause_and_listing.sql
\ir migrations/0009_dead_letters_and_attempts.sql
\ir migrations/0010_job_results.sql
\ir migrations/0011_job_metadata.sql
\ir migrations/0012_worker_types.sql
\ir migrations/0013_storage_generations.sql
\ir migrations/0014_schedule_missed_grace.sql
\ir functions/locks.sql
\ir functions/internal.sql
\ir functions/audit.sql
\ir functions/bounds.sql
\ir functions/limits.sql
\ir functions/enqueue.sql
\ir functions/policies.sql
\ir functions/workers.sql
\ir functions/unhandled.sql
\ir functions/claim_steps.sql
\ir functions/claim.sql
\ir functions/wakeup.sql
\ir functions/finish.sql
\ir functions/lookup.sql
\ir functions/dead_letters.sql
\ir functions/attempts.sql
\ir functions/maintenance.sql
\ir functions/storage.sql
\ir functions/tick.sql
\ir functions/schedules.sql
\ir functions/cron.sql
\ir functions/queue_pause.sql
\ir functions/operator_jobs.sql
\ir functions/throughput.sql
\ir functions/console.sql
\ir roles.sql
\ir record_release.sql
commit;
-- The one line that says what happened (record_release.sql wrote it).
select current_setting('jq.install_report') as jq_install_report \gset
\echo :jq_install_report
