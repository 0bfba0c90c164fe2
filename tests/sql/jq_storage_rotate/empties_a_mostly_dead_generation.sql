-- A generation holding more live rows than one call moves is emptied only
-- once its count has stood still for 10 s (jq.storage_generations.live_rows
-- and live_at: the count when it last changed, and when): then when it holds
-- more than settings.rotation_move_limit live rows too, if it is mostly dead
-- row versions (over 1 MB of heap, indexes and TOAST, over twice its live
-- rows' bytes).
-- While the count changes (the claims are taking its jobs) it is left to them
-- ('draining'). Emptied, the limit of them moves per call ('moving', noted as
-- -1: the next calls go on), and the call that finds it empty truncates it.
-- (One made mostly of live rows is a backlog: leaves_a_backlog_to_drain.sql.)
begin;
select plan(11);

update jq.settings set rotation_move_limit = 10;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
-- Written straight into the oldest generation (one write per row: the setup
-- must fit in the slot), then all but 30 deleted.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'dead_gen_q', 't_churn', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :old
  from generate_series(1, 3500);
delete from jq.jobs where queue = 'dead_gen_q' and id not in (select id from jq.jobs where queue = 'dead_gen_q' limit 30);

select cmp_ok(pg_relation_size(format('jq.jobs_g%s', :old)), '>', 1048576::bigint,
              'the generation holds over 1 MB of heap for 30 live jobs');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'first seen: left as it is, its count noted');
select is((select live_rows from jq.storage_generations where generation = :old), 30, 'live_rows 30');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'the same count, noted under 10 s ago: left as it is');

-- As if it had held 130 live jobs 11 s ago: the claims took 100 since.
update jq.storage_generations set live_rows = 130, live_at = clock_timestamp() - interval '11 s'
 where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'fewer than noted: the claims are at it, left to them');
select cmp_ok((select live_at from jq.storage_generations where generation = :old), '>',
              clock_timestamp() - interval '1 s', 'the change is noted with its time');

-- The count stood still for 11 s.
update jq.storage_generations set live_at = clock_timestamp() - interval '11 s' where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'stood still 10 s and mostly dead: 10 of its 30 move');
select is((select live_rows from jq.storage_generations where generation = :old), -1, 'noted as being emptied');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'the next call goes on: 10 more');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 10)$$, 'the last 10 move and the generation is truncated');
select is((select count(*)::int from jq.jobs where queue = 'dead_gen_q' and generation = :cur), 30,
          'all 30 are in the current generation');

select * from finish();
rollback;
