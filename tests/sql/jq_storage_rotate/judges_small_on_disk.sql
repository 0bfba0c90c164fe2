-- 'small' is judged on a generation's size on disk, heap, indexes and TOAST
-- together (migration 17): a generation whose heap is under
-- settings.rotation_min_bytes but whose indexes take it over is emptied and
-- truncated, not kept. (Judged by the heap alone, a generation whose heap
-- autovacuum had shrunk was kept with megabytes of indexes;
-- tests/test_storage_rotation.py reproduces that with a real VACUUM.)
begin;
select plan(5);

update jq.settings set rotation_min_bytes = 65536;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select format('jq.jobs_g%s', :old) as old_part \gset
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2, jq.queue_waiters_g0, jq.queue_waiters_g1, jq.queue_waiters_g2;

insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'disk_q', 't_disk', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :old
  from generate_series(1, 60);
select pg_relation_filenode(:'old_part') as filenode_before \gset

select cmp_ok(pg_relation_size(:'old_part'), '<', 65536::bigint, 'its heap is under rotation_min_bytes');
select cmp_ok(pg_total_relation_size(:'old_part'), '>=', 65536::bigint, 'with its indexes it is over');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 60)$$, 'emptied and truncated, not kept small');
select isnt(pg_relation_filenode(:'old_part'), :'filenode_before'::oid, 'a new, empty file');
select is((select count(*)::int from jq.jobs where queue = 'disk_q' and generation = :cur), 60,
          'its sixty jobs are in the current generation');

select * from finish();
rollback;
