-- max_running 0 pauses a tenant in a queue: none of its jobs is claimed,
-- they stay pending, and the other tenants are served as usual. Dropping the
-- policy resumes it.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('pause_q', 'A', null, 0) \gset
select cardinality(jq_test.enqueue_tenant('A', 5, 'pause_q')) \gset
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'pause_q')) \gset

select is(jq_test.claim_tenants('pause_q', 1, 10), array['B', 'B', 'B'], 'a claim of 10 gets only B''s 3 jobs');
select is_empty($$select * from jq.jq_claim('pause_q', 'w1', 10)$$, 'then nothing: A is paused');
select is((select count(*)::int from jq.jobs where queue = 'pause_q' and tenant = 'A' and status = 'pending'), 5,
          'A''s jobs stay pending');
select is((select attempts from jq.jobs where queue = 'pause_q' and tenant = 'A' limit 1), 0::smallint,
          'and no attempt was counted for them');

-- A paused tenant can have higher-priority jobs: still nothing.
select cardinality(jq_test.enqueue_tenant('A', 1, 'pause_q', 100)) \gset
select is_empty($$select * from jq.jq_claim('pause_q', 'w1', 10)$$, 'not even its priority-100 job');

select jq.jq_tenant_policy_delete('pause_q', 'A') \gset
select is((select count(*)::int from jq.jq_claim('pause_q', 'w1', 10)), 6, 'policy dropped: A''s 6 jobs are claimed');

select * from finish();
rollback;
