-- jq_version() is the release of the newest migration in the ledger; this
-- installer applies migrations 1 (0.1.0), 2 (0.2.0) and 3 (0.3.0).
begin;
select plan(7);

select is(jq.jq_version(), '0.3.0', 'jq_version returns 0.3.0');
select is(jq.jq_version(), (select release from jq.migrations order by version desc limit 1),
          'it is the release of the newest migration in jq.migrations');
select results_eq('select version, release, name from jq.migrations order by version',
                  $$values (1, '0.1.0'::text, 'initial'::text), (2, '0.2.0', 'schedules'), (3, '0.3.0', 'fairness')$$,
                  'the ledger holds migrations 1 (0.1.0), 2 (0.2.0) and 3 (0.3.0)');
select cmp_ok((select applied_at from jq.migrations where version = 1), '<=', now(),
              'migration 1 records when it was applied');
select cmp_ok((select applied_at from jq.migrations where version = 2), '<=', now(),
              'migration 2 records when it was applied');
select cmp_ok((select applied_at from jq.migrations where version = 3), '<=', now(),
              'migration 3 records when it was applied');

-- A newer migration recorded in the ledger becomes the reported version.
insert into jq.migrations (version, release, name) values (4, '0.4.0', 'pretend');
select is(jq.jq_version(), '0.4.0', 'the newest migration wins');

select * from finish();
rollback;
