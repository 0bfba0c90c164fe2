-- jq_version() is the release the installer recorded in jq.release (its
-- number is written once, in sql/bootstrap.sql); the ledger lists the
-- migrations 1 (0.1.0) to 14 (0.6.0) this installer applies.
begin;
select plan(8);

select is(jq.jq_version(), '0.6.0', 'jq_version returns 0.6.0');
select is(jq.jq_version(), (select release from jq.release), 'it is the release recorded in jq.release');
select is((select count(*)::int from jq.release), 1, 'jq.release holds one row');
select cmp_ok((select installed_at from jq.release), '<=', now(), 'jq.release records when the release was installed');
select results_eq('select version, release, name from jq.migrations order by version',
                  $$values (1, '0.1.0'::text, 'initial'::text), (2, '0.2.0', 'schedules'), (3, '0.3.0', 'fairness'),
                           (4, '0.4.0', 'structure'), (5, '0.4.0', 'bounds_and_clock'),
                           (6, '0.4.0', 'workers'), (7, '0.5.0', 'audit_log'),
                           (8, '0.5.0', 'queue_pause_and_listing'), (9, '0.5.0', 'dead_letters_and_attempts'),
                           (10, '0.5.0', 'job_results'), (11, '0.5.0', 'job_metadata'), (12, '0.5.0', 'worker_types'),
                           (13, '0.6.0', 'storage_generations'), (14, '0.6.0', 'schedule_missed_grace')$$,
                  'the ledger holds migrations 1 (0.1.0) to 14 (0.6.0)');
select is_empty('select 1 from jq.migrations where applied_at > now()', 'every migration records when it was applied');

-- A release that changes only functions adds no migration, yet reports its own number.
update jq.release set release = '0.4.1';
select is(jq.jq_version(), '0.4.1', 'the recorded release wins, not the newest migration');
insert into jq.migrations (version, release, name) values (99, '9.9.0', 'pretend');
select is(jq.jq_version(), '0.4.1', 'a migration row alone does not change the reported release');

select * from finish();
rollback;
