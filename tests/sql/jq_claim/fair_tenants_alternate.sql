-- Fair claiming (issue #8): two tenants of equal weight, both with ready
-- jobs of equal priority, take turns. One claim of limit 1 at a time goes
-- A, B, A, B, ... even though all of A's jobs are older than B's (plain
-- FIFO would drain A first). A ties with B at the start and goes first as
-- the tenant with the oldest ready job.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 10, 'fair_alt')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 10, 'fair_alt')) \gset

create temp table seq as select jq_test.claim_tenants('fair_alt', 16) as t;

select is((select t from seq), array['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
          '16 claims of limit 1 alternate A, B, starting with A (the oldest job)');
select is((select count(*)::int from seq, unnest(t) x where x = 'A'), 8, 'A got 8 jobs');
select is((select count(*)::int from seq, unnest(t) x where x = 'B'), 8, 'B got 8 jobs');
select results_eq($$select payload ->> 'i' from jq.jobs where queue = 'fair_alt' and tenant = 'A' and status = 'processing'
                     order by (payload ->> 'i')::int$$,
                  array['1', '2', '3', '4', '5', '6', '7', '8'],
                  'A''s claimed jobs are its 8 oldest');
select results_eq($$select tenant, count(*)::int from jq.jobs where queue = 'fair_alt' and status = 'pending'
                     group by tenant order by tenant$$,
                  $$values ('A'::text, 2), ('B', 2)$$, 'two jobs of each tenant are still pending');

select * from finish();
rollback;
