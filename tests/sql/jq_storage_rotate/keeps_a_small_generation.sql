-- A generation whose heap is under settings.rotation_min_bytes (256 kB) is
-- kept ('small'): nothing moves, nothing is truncated, its jobs stay where
-- they are. Once it has grown past the setting (or with the setting at 0)
-- it is emptied and truncated. Its marks of jq.queue_waiters are kept
-- below a quarter of the setting.
begin;
select plan(9);

select is((select rotation_min_bytes from jq.settings), 262144, 'rotation_min_bytes is 256 kB by default');

select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select format('jq.jobs_g%s', :old) as old_part \gset
select format('jq.queue_waiters_g%s', :old) as old_marks \gset
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2, jq.queue_waiters_g0, jq.queue_waiters_g1, jq.queue_waiters_g2;

select jq.jq_enqueue('t_small', '{}', 'small_q') from generate_series(1, 5);
select jq_test.store_in(id, :old) from jq.jobs where queue = 'small_q';
select jq.jq_set_waiting(array['small_idle_q'], 'w1', true);  -- a queue the moves do not wake
update jq.queue_waiters set generation = :old;
select pg_relation_filenode(:'old_part') as filenode_before \gset

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('small'::text, 0)$$, 'five jobs on one page: kept, no marks row');
select is((select count(*)::int from jq.jobs where queue = 'small_q' and generation = :old), 5,
          'the five stay in their generation');
select is(pg_relation_filenode(:'old_part'), :'filenode_before'::oid, 'not truncated');
select is((select count(*)::int from jq.queue_waiters where generation = :old), 1, 'the mark stays too');

-- Grown past the setting: filler rows, written straight into the generation.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'small_filler_q', 't_filler', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :old
  from generate_series(1, 1000);
delete from jq.jobs where queue = 'small_filler_q';
select cmp_ok(pg_relation_size(:'old_part'), '>=', 262144::bigint, 'the generation has grown past 256 kB');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 5)$$, 'now emptied and truncated; its one-page marks kept');
select is((select count(*)::int from jq.queue_waiters where generation = :old), 1, 'the mark is still there');

update jq.settings set rotation_min_bytes = 0;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s order by outcome', :old),
                  $$values ('empty'::text, 0), ('marks truncated', 1)$$,
                  'rotation_min_bytes 0: the marks partition is truncated too');

select * from finish();
rollback;
