-- jq_worker_register stores the job types the worker handles (p_types,
-- sorted and without repeats), null when the worker does not say; a
-- registration again replaces them; jq_workers lists them; bad types are
-- refused and change nothing.
begin;
select plan(8);

select jq_test.set_now('2030-03-01 09:00Z') as t0 \gset
select count(*) from jq.jq_worker_register('types-w1', '{"tq": 2}', 'host-a', 1, '0.5.0',
                                           array['send_email', 'charge_card', 'send_email']) \gset
select is((select types from jq.workers where name = 'types-w1'), array['charge_card', 'send_email'],
          'the types are stored sorted, each once');
select count(*) from jq.jq_worker_register('types-w2', '{"tq": 2}', 'host-a', 2, 'other') \gset
select is((select types from jq.workers where name = 'types-w2'), null::text[],
          'a worker that does not say its types has types null');
select count(*) from jq.jq_worker_register(p_worker => 'types-w1', p_queues => '{"tq": 2}', p_host => 'host-a',
                                           p_pid => 1, p_types => array['make_report']) \gset
select is((select types from jq.workers where name = 'types-w1'), array['make_report'],
          'registering again replaces the types');
select results_eq($$select worker, types from jq.jq_workers() where worker like 'types-%' order by worker$$,
                  $$values ('types-w1'::text, array['make_report']), ('types-w2', null::text[])$$,
                  'jq_workers lists each worker''s types');

select throws_ok($$select * from jq.jq_worker_register('types-w3', '{"q": 1}', null, null, null, '{}')$$,
                 '22023', 'types must name 1 to 10000 job types', 'an empty types array');
select throws_ok($$select * from jq.jq_worker_register('types-w3', '{"q": 1}', null, null, null, array['a', null])$$,
                 '22023', null, 'a null type');
select throws_ok(format('select * from jq.jq_worker_register(%L, %L, null, null, null, array[%L])',
                        'types-w3', '{"q": 1}', repeat('t', 129)),
                 '22023', null, 'a type longer than 128 characters');
select is_empty($$select 1 from jq.workers where name = 'types-w3'$$, 'a refused registration writes nothing');

select * from finish();
rollback;
