-- A generation holding more live rows than settings.rotation_move_limit is
-- emptied all the same when it is mostly dead row versions (over 1 MB of
-- heap, over three times its live rows' bytes), unless the claims are working
-- it down: fewer live rows by the statistics than when the rotation last left
-- it ('draining', noted in jq.storage_generations.live_rows). Emptied, the
-- limit of them moves per call ('moving'), and the call that finds it empty
-- truncates it. (One made mostly of live rows is a backlog:
-- leaves_a_backlog_to_drain.sql.)
begin;
select plan(8);

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

-- As if the last call had left it with more live rows than the statistics say now.
update jq.storage_generations
   set live_rows = pg_stat_get_live_tuples(format('jq.jobs_g%s', :old)::regclass) + 100, live_at = clock_timestamp()
 where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'fewer live rows than last seen: left to the claims');
select is((select live_rows from jq.storage_generations where generation = :old),
          pg_stat_get_live_tuples(format('jq.jobs_g%s', :old)::regclass),
          'the call notes what the statistics say now');

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'no fewer since: 10 of its 30 live jobs move');
select is((select live_rows from jq.storage_generations where generation = :old), null::bigint,
          'a move forgets the count (its own moves take live rows too)');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'nothing noted, still mostly dead: 10 more move');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 10)$$, 'the last 10 move and the generation is truncated');
select is((select count(*)::int from jq.jobs where queue = 'dead_gen_q' and generation = :cur), 30,
          'all 30 are in the current generation');

select * from finish();
rollback;
