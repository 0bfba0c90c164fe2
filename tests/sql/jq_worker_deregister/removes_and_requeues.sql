-- jq_worker_deregister removes the registration and hands back at once any
-- job the worker still holds (several: their attempts are not counted).
begin;
select plan(4);

select jq_test.set_now('2030-03-01 09:00Z') \gset
select count(*) from jq.jq_worker_register('dereg-w1', '{"dereg_q": 2}') \gset
select jq_test.enqueue_ready(2, 'work', 'dereg_q') as ids \gset
select count(*) from jq.jq_claim('dereg_q', 'dereg-w1', 2) \gset
select is(jq.jq_worker_deregister('dereg-w1'), 2, 'answers the two jobs it handed back');
select is_empty($$select 1 from jq.workers where name = 'dereg-w1'$$, 'the registration is gone');
select results_eq(
    format('select status, attempts::int, orphaned::int from jq.jobs where id = any(%L::uuid[]) order by id', :'ids'),
    $$values ('pending'::text, 0, 1), ('pending', 0, 1)$$,
    'both jobs are pending, the attempt given back, orphaned once');
select is(jq.jq_worker_deregister('dereg-w1'), 0, 'deregistering again does nothing');

select * from finish();
rollback;
