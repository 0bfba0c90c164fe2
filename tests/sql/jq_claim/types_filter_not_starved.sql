-- A claim with p_types gets the ready jobs of those types even when other
-- tenants, first in line by fair share or age, have only jobs of other types
-- ready: their groups yield nothing for this claim and must not use up its
-- slots.
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from unnest(array['A', 'B', 'C', 'D']) t, jq_test.enqueue_tenant(t, 1, 'types_starve', 0, 'other') \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('Z', 10, 'types_starve', 0, 'mine')) \gset

select is((select count(*)::int from jq.jq_claim('types_starve', 'w1', 1, '5 minutes', array['mine'])), 1,
          'a claim of 1 for type mine gets one of Z''s jobs');
select is((select count(*)::int from jq.jq_claim('types_starve', 'w1', 3, '5 minutes', array['mine'])), 3,
          'a claim of 3 for type mine gets 3');
select is((select count(*)::int from jq.jobs where queue = 'types_starve' and type = 'other' and status = 'pending'), 4,
          'the other type''s jobs are left alone');

select * from finish();
rollback;
