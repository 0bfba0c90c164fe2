-- jq_maintain declares gone the workers silent for gone_after, hands their
-- jobs back (jobs_rescued) and forgets workers gone for an hour.
begin;
select plan(4);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-03-01 09:00Z') \gset
select count(*) from jq.jq_worker_register('maint-w1', '{"maint_q": 2}') \gset
select jq_test.enqueue_and_claim('maint-w1', 'work', 'maint_q') as job \gset
select jq_test.advance('20 seconds') \gset
select jq.jq_maintain() as r \gset
select is((:'r'::jsonb ->> 'jobs_rescued')::int, 1, 'the silent worker''s job was rescued');
select is((select status from jq.jobs where id = :'job'), 'pending', 'it is pending again');
select isnt((select gone_at from jq.workers where name = 'maint-w1'), null, 'the worker is declared gone');
select jq_test.advance('61 minutes') \gset
select count(*) from jq.jq_maintain() \gset
select is_empty($$select 1 from jq.workers where name = 'maint-w1'$$, 'an hour later it is forgotten');

select * from finish();
rollback;
