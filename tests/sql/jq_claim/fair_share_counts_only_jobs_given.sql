-- A tenant's fair lane grows by 1/weight per job it is given, and jq_tenants'
-- served counts the jobs given while tenants shared the queue: jobs a claim
-- picked but then left pending (over a concurrency-key cap) are not given
-- and must not count.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 10, 'share_given', 0, 'fsc.sync', 'K')) \gset
select cardinality(jq_test.enqueue_tenant('B', 10, 'share_given')) \gset

create temp table claimed as select * from jq.jq_claim('share_given', 'w1', 10);
select is((select count(*)::int from claimed where tenant = 'A'), 1, 'A is given 1 job (its key''s cap)');

select results_eq($$select tenant, served from jq.jq_tenants('share_given') order by 1$$,
                  $$select tenant, count(*) from claimed group by 1 order by 1$$,
                  'jq_tenants: served is what each tenant was given');
select is((select served from jq.fair_lanes where queue = 'share_given' and tenant = 'A'), 1::bigint,
          'A''s lane counts 1 job served');
select is((select l_b.pass - l_a.pass from jq.fair_lanes l_a, jq.fair_lanes l_b
            where l_a.queue = 'share_given' and l_a.tenant = 'A' and l_b.queue = 'share_given' and l_b.tenant = 'B'),
          (select count(*) filter (where tenant = 'B') - count(*) filter (where tenant = 'A') from claimed)::double precision,
          'B''s pass is ahead of A''s by the extra jobs B was given (equal weights)');

select * from finish();
rollback;
