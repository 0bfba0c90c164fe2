-- jq.queue_waiters is in generations (migration 14) and its key holds the
-- generation, so jq_set_waiting keeps one mark per (queue, worker) itself:
-- a new mark goes into the current generation; a mark that exists, in any
-- generation, with this backend is not written again; one of another backend
-- (the worker reconnected) is repointed at this one, keeping its since and
-- generation; false deletes the worker's marks wherever they are.
begin;
select plan(9);

select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset

select jq.jq_set_waiting(array['sw_a', 'sw_b'], 'w1', true) \gset
select results_eq($$select queue, generation::int from jq.queue_waiters where worker = 'w1' order by queue$$,
                  format('values (%L, %s), (%L, %s)', 'sw_a', :cur, 'sw_b', :cur),
                  'new marks go into the generation of the current slot');

update jq.queue_waiters set generation = :old where worker = 'w1' and queue = 'sw_a';
create temp table before as select queue, tableoid as part, ctid as tid, since from jq.queue_waiters where worker = 'w1';
select jq.jq_set_waiting(array['sw_a', 'sw_b'], 'w1', true) \gset
select is((select count(*)::int from jq.queue_waiters where worker = 'w1'), 2,
          'marking again adds no mark, not even beside one in another generation');
select is_empty($$select b.queue from before b
                   where not exists (select 1 from jq.queue_waiters w
                                      where w.tableoid = b.part and w.ctid = b.tid)$$,
                'and writes nothing: each mark keeps its row version');

update jq.queue_waiters set backend_pid = 0 where worker = 'w1' and queue = 'sw_a';
select jq.jq_set_waiting(array['sw_a'], 'w1', true) \gset
select results_eq($$select backend_pid, generation::int, since from jq.queue_waiters
                     where worker = 'w1' and queue = 'sw_a'$$,
                  format($$select pg_backend_pid(), %s, since from before where queue = 'sw_a'$$, :old),
                  'a mark of another backend is repointed at this one, keeping its generation and since');
select is((select count(*)::int from jq.queue_waiters where worker = 'w1' and queue = 'sw_a'), 1,
          'and stays the only mark of its queue and worker');

select jq.jq_set_waiting(array['sw_a', 'sw_c'], 'w2', true) \gset
select jq.jq_set_waiting(array['sw_a', 'sw_b'], 'w1', false) \gset
select is_empty($$select 1 from jq.queue_waiters where worker = 'w1'$$,
                'false deletes the worker''s marks, in every generation');
select results_eq($$select queue from jq.queue_waiters where worker = 'w2' order by queue$$,
                  $$values ('sw_a'), ('sw_c')$$, 'another worker''s marks stay');

select jq.jq_set_waiting(array['sw_d', 'sw_d', null], 'w3', true) \gset
select results_eq($$select queue from jq.queue_waiters where worker = 'w3'$$, $$values ('sw_d')$$,
                  'a queue named twice gets one mark, a null queue none');
select throws_ok($$select jq.jq_set_waiting(array['sw_a'], '', true)$$, '22023', null,
                 'an empty worker name is refused');

select * from finish();
rollback;
