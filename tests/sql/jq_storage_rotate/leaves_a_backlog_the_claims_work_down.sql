-- A generation within settings.rotation_move_limit, but holding more live
-- rows than one call moves (500), is left to the claims while its count
-- changes ('draining'), and emptied once it has stood still for 10 s.
begin;
select plan(5);

update jq.settings set rotation_min_bytes = 0, rotation_move_limit = 1000;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'worked_q', 't_backlog', '{}', now(), 5, now(), :old
  from generate_series(1, 600);

update jq.storage_generations set live_rows = 700, live_at = clock_timestamp() - interval '11 s'
 where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, '600 live, fewer than the 700 noted: left to the claims');
select is((select live_rows from jq.storage_generations where generation = :old), 600, 'the 600 noted');
update jq.storage_generations set live_at = live_at - interval '11 s' where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 500)$$, 'no fewer for 10 s: emptied, 500 a call');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 100)$$, 'then the last 100, and truncated');
select is((select count(*)::int from jq.jobs where queue = 'worked_q' and generation = :cur), 600, 'all 600 kept');

select * from finish();
rollback;
