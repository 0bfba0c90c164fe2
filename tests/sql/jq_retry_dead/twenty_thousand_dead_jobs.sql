-- 20,000 dead jobs in three groups: jq_dead_groups finds the groups and
-- jq_retry_dead requeues the largest in one call. Counts only; the elapsed
-- times are printed for information (bench/ measures speed).
--
-- The planner is given the statistics autovacuum leaves after analysing an
-- emptied jq.dead_jobs (pages but no live rows), so it expects one row
-- wherever it looks: a plan that is quadratic in the group size (a nested
-- loop over the chosen rows took minutes here) then shows up every time, and
-- statement_timeout turns it into a failure rather than a hang.
begin;
select plan(7);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts,
                          last_error, error_fingerprint, created_at, failed_at)
select gen_random_uuid(), 'bulk', e.type, jsonb_build_object('i', i), 0, :'t0'::timestamptz - interval '1 hour',
       3, 3, e.error, jq.error_fingerprint(e.error),
       :'t0'::timestamptz - interval '1 hour', :'t0'::timestamptz - make_interval(secs => i)
  from generate_series(1, 20000) i
 cross join lateral (select case
         when i % 2 = 0 then 'invoice.send'
         when i % 4 = 1 then 'invoice.send'
         else 'email.send' end as type,
       case
         when i % 2 = 0 then 'Timeout after 30s for inv_' || i
         when i % 4 = 1 then 'Customer ' || (100000 + i) || ' not found: HTTP 404'
         else 'connect to 10.0.' || (i % 250) || '.' || (i % 200 + 1) || ':25 refused' end as error) e;

update pg_class set relpages = 1000, reltuples = 0
 where oid in ('jq.dead_jobs'::regclass, 'jq.jobs'::regclass);
set local statement_timeout = '10s';

select clock_timestamp() as c0 \gset
create temp table groups as select * from jq.jq_dead_groups();
select diag('jq_dead_groups over 20,000 dead jobs: ' || (clock_timestamp() - :'c0'::timestamptz)::text);

select results_eq(
    'select type, error, count from groups',
    $$values ('invoice.send'::text, 'Timeout after 30s for ?'::text, 10000::bigint),
             ('email.send', 'connect to ? refused', 5000),
             ('invoice.send', 'Customer ? not found: HTTP 404', 5000)$$,
    'three groups with the right counts, largest first');

select clock_timestamp() as c1 \gset
select jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?') as requeued \gset
select diag('jq_retry_dead of 10,000 jobs: ' || (clock_timestamp() - :'c1'::timestamptz)::text);

select is(:'requeued'::int, 10000, 'jq_retry_dead requeues the 10,000 jobs of the group');
select is((select count(*)::int from jq.jobs where type = 'invoice.send' and attempts = 0 and status = 'pending'),
          10000, 'all 10,000 are pending in jq.jobs with attempts reset');
select is((select count(*)::int from jq.dead_jobs), 10000, 'the other 10,000 are still dead');
select is((select count(*)::int from jq.dead_jobs where type = 'invoice.send' and error_fingerprint = 'Timeout after 30s for ?'),
          0, 'none of the requeued group is left in jq.dead_jobs');
select results_eq(
    'select type, error, count from jq.jq_dead_groups()',
    $$values ('email.send'::text, 'connect to ? refused'::text, 5000::bigint),
             ('invoice.send', 'Customer ? not found: HTTP 404', 5000)$$,
    'jq_dead_groups now shows the two remaining groups');
select is((select sum(ready)::int from jq.jq_stats() where queue = 'bulk'), 10000, 'jq_stats counts them ready');

select * from finish();
rollback;
