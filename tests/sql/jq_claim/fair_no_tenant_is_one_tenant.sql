-- Fair claiming: jobs without a tenant are one tenant of their own (key ''),
-- not one tenant per job and not exempt from sharing. With 10 older
-- no-tenant jobs and 10 of tenant A, claims of limit 1 alternate between
-- them; adding tenant B makes a three-way round.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant(null, 10, 'fair_null')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('A', 10, 'fair_null')) \gset

select is(jq_test.claim_tenants('fair_null', 6), array['-', 'A', '-', 'A', '-', 'A'],
          'no-tenant jobs and A alternate, the no-tenant jobs first (older)');

select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 10, 'fair_null')) \gset
select is((select array_agg(x order by x) from unnest(jq_test.claim_tenants('fair_null', 9)) x),
          array['-', '-', '-', 'A', 'A', 'A', 'B', 'B', 'B'],
          'with B added, 9 claims give 3 to each of the three tenants');

select is((select count(*)::int from jq.fair_lanes where queue = 'fair_null' and tenant = ''), 1,
          'the no-tenant jobs share one fair lane, keyed ''''');
select results_eq($$select tenant, ready from jq.jq_tenants('fair_null') order by tenant nulls first$$,
                  $$values (null::text, 4::bigint), ('A', 4), ('B', 7)$$,
                  'jq_tenants reports them as one row with tenant null');

select * from finish();
rollback;
