-- Fair claiming: a small tenant that shows up late is not stuck behind a
-- large tenant's backlog. A has 1000 ready jobs (and has been claiming
-- alone); B then enqueues 5. The next claim of limit 2 already holds one of
-- B's jobs, and all 5 of B's jobs are out within the next few claims of
-- limit 2, while A keeps getting its share.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 1000, 'fair_late')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.claim_tenants('fair_late', 3)) as warmup \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 5, 'fair_late')) \gset

select is(jq_test.claim_tenants('fair_late', 1, 2), array['A', 'B'],
          'the next claim of limit 2 holds one job of A and one of B');
select is((select array_agg(x) from unnest(jq_test.claim_tenants('fair_late', 4, 2)) x where x = 'B'),
          array['B', 'B', 'B', 'B'], 'B''s other 4 jobs are in the next 4 claims of limit 2');
select is((select count(*)::int from jq.jobs where queue = 'fair_late' and tenant = 'B' and status = 'pending'), 0,
          'none of B''s jobs is left waiting');
select is((select count(*)::int from jq.jobs where queue = 'fair_late' and tenant = 'A' and status = 'processing'), 3 + 1 + 4,
          'A got every other slot meanwhile');

select * from finish();
rollback;
