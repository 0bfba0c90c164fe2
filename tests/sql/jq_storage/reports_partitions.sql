-- jq_storage reports the four partitions of jq.jobs: one current, one
-- previous, one oldest, jobs_waiting; then the three of jq.queue_waiters,
-- whose roles follow the same generation; with sizes and the truncation counts.
begin;
select plan(6);

select jq_test.at_slot_start() as cur \gset
select is((select count(*)::int from jq.jq_storage()), 7, 'four partitions of jobs, three of waiter marks');
select results_eq($$select role from jq.jq_storage() where partition_name like 'jobs%' order by generation$$,
                  format($$values (%L), (%L), (%L), ('waiting'::text)$$,
                         case :cur when 0 then 'current' when 1 then 'previous' else 'oldest' end,
                         case :cur when 1 then 'current' when 2 then 'previous' else 'oldest' end,
                         case :cur when 2 then 'current' when 0 then 'previous' else 'oldest' end),
                  'roles follow the current generation');
select results_eq('select partition_name from jq.jq_storage()',
                  $$values ('jobs_g0'::text), ('jobs_g1'), ('jobs_g2'), ('jobs_waiting'),
                           ('queue_waiters_g0'), ('queue_waiters_g1'), ('queue_waiters_g2')$$,
                  'partition names, the jobs'' first, each table''s in generation order');
select results_eq($$select generation, role from jq.jq_storage() where partition_name like 'queue_waiters%'$$,
                  $$select generation, role from jq.jq_storage() where partition_name like 'jobs_g%'$$,
                  'each marks partition has its generation''s role');
select ok((select bool_and(bytes > 0) from jq.jq_storage()), 'sizes include the indexes (never 0)');
select jq.jq_enqueue('t_st', '{}', 'st_q');
select jq_test.store_in(id, (:cur + 1) % 3) from jq.jobs where queue = 'st_q';
update jq.settings set rotation_min_bytes = 0;
select count(*) as n_rows from jq_test.tick() \gset
select is((select truncations from jq.jq_storage() where partition_name = format('jobs_g%s', (:cur + 1) % 3)),
          (select truncations from jq.storage_generations where generation = (:cur + 1) % 3),
          'truncations as jq.storage_generations counts them');

select * from finish();
rollback;
