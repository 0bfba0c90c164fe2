-- Fair claiming keeps no credit for idle time: a tenant that had no ready
-- jobs while the others were served (or is new) starts level with the
-- tenants being served when it comes back, instead of taking every slot
-- until its virtual time catches up. Likewise a tenant paused by a
-- max_running 0 policy gets at most about 10 jobs of credit when resumed.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select sum(cardinality(jq_test.enqueue_tenant(t, 200, 'fair_back'))) from unnest(array['A', 'B']) t \gset
select cardinality(jq_test.enqueue_tenant('C', 2, 'fair_back')) \gset
select cardinality(jq_test.claim_tenants('fair_back', 6)) as warmup \gset
select is((select count(*)::int from jq.jobs where queue = 'fair_back' and tenant = 'C' and status = 'pending'), 0,
          'C had its turns in the first round, and has no job left');

-- A and B are served 100 jobs each while C is idle.
select cardinality(jq_test.claim_tenants('fair_back', 200)) as busy \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('C', 50, 'fair_back')) \gset
create temp table seq as select jq_test.claim_tenants('fair_back', 30) as t;

select is((select array_agg(x order by x) from seq, unnest(t[1:3]) x), array['A', 'B', 'C'],
          'C is back: the first 3 claims serve A, B and C once each (C does not take every slot)');
select is((select count(*)::int from seq, unnest(t) x where x = 'C'), 10,
          'C gets 10 of the next 30 claims: level with A and B, no credit for the 100 claims it missed');

-- A new tenant also starts level.
select cardinality(jq_test.enqueue_tenant('D', 50, 'fair_back')) \gset
select is((select count(*)::int from unnest(jq_test.claim_tenants('fair_back', 40)) x where x = 'D'), 10,
          'a new tenant D gets 10 of the next 40 claims, its fair quarter');

-- A tenant paused by policy (max_running 0) while the others were served
-- 100 jobs gets at most its share plus about 10 jobs when resumed.
select count(*) from jq.jq_tenant_policy_set('fair_back', 'D', null, 0) \gset
select is((select count(*)::int from unnest(jq_test.claim_tenants('fair_back', 99)) x where x = 'D'), 0,
          'while paused, D gets nothing');
select jq.jq_tenant_policy_delete('fair_back', 'D') \gset
select cmp_ok((select count(*)::int from unnest(jq_test.claim_tenants('fair_back', 40)) x where x = 'D'), '<=', 10 + 10,
              'resumed, D gets at most its 10 of the next 40 claims plus 10 jobs of credit');

select * from finish();
rollback;
