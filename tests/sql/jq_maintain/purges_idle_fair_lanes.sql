-- jq_maintain forgets fair lanes idle for more than a day (lanes_purged in
-- its summary) and keeps the ones a claim updated within the last day.
begin;
select plan(4);

-- Wait for any other session running jq_maintain (pg_prove -j).
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-15 08:00Z') \gset
select sum(cardinality(jq_test.enqueue_tenant(t, 5, 'lanes_old'))) from unnest(array['A', 'B']) t \gset
select cardinality(jq_test.claim_tenants('lanes_old', 4)) as old \gset
select count(*) from jq.jq_complete((select array_agg(id) from jq.jobs where status = 'processing'), 'w1') \gset

select jq_test.advance('1 day 1 minute') \gset
select sum(cardinality(jq_test.enqueue_tenant(t, 5, 'lanes_new'))) from unnest(array['A', 'B']) t \gset
select cardinality(jq_test.claim_tenants('lanes_new', 4)) as new \gset
select results_eq($$select queue, count(*)::int from jq.fair_lanes group by 1 order by 1$$,
                  $$values ('lanes_new'::text, 2), ('lanes_old', 2)$$, 'both queues have lanes for A and B');

select jq.jq_maintain() as summary \gset
select is((:'summary'::jsonb ->> 'lanes_purged')::int, 2, 'lanes_purged: the 2 lanes idle for over a day');
select results_eq($$select queue, tenant from jq.fair_lanes order by 1, 2$$,
                  $$values ('lanes_new'::text, 'A'::text), ('lanes_new', 'B')$$, 'the lanes used a minute ago are kept');
select is((jq.jq_maintain() ->> 'lanes_purged')::int, 0, 'a second call purges nothing');

select * from finish();
rollback;
