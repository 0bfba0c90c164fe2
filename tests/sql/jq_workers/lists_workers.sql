-- jq_workers lists registered workers with their running jobs and a state:
-- alive, silent (no beat for gone_after) or gone (declared gone).
begin;
select plan(3);

-- Wait for any other session running jq_maintain (pg_prove -j): it would make our call skip.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset
select jq_test.set_now('2030-03-01 09:00Z') \gset
select count(*) from jq.jq_worker_register('list-a', '{"list_q": 3}', 'h1', 11, '0.4.0') \gset
select jq_test.advance('1 second') \gset
select count(*) from jq.jq_worker_register('list-b', '{"list_q": 1}', 'h2', 22, '0.4.0') \gset
select count(*) from jq.jq_enqueue_many(jsonb_build_array(
    jsonb_build_object('type', 'w', 'queue', 'list_q'), jsonb_build_object('type', 'w', 'queue', 'list_q'))) \gset
select count(*) from jq.jq_claim('list_q', 'list-a', 2) \gset

select results_eq(
    $$select worker, host, pid, queues, state, running from jq.jq_workers() where worker like 'list-%'$$,
    $$values ('list-b'::text, 'h2'::text, 22, '{"list_q": 1}'::jsonb, 'alive'::text, 0),
             ('list-a', 'h1', 11, '{"list_q": 3}', 'alive', 2)$$,
    'newest first, with running job counts');
select jq_test.advance('20 seconds') \gset
select count(*) from jq.jq_worker_beat('list-b') \gset
select results_eq(
    $$select worker, state from jq.jq_workers() where worker like 'list-%'$$,
    $$values ('list-b'::text, 'alive'::text), ('list-a', 'silent')$$,
    'a worker silent for gone_after is silent until someone declares it gone');
select count(*) from jq.jq_maintain() \gset
select results_eq(
    $$select worker, state, running from jq.jq_workers() where worker like 'list-%'$$,
    $$values ('list-b'::text, 'alive'::text, 0), ('list-a', 'gone', 0)$$,
    'jq_maintain declared it gone and took its jobs back');

select * from finish();
rollback;
