-- jq_storage_turn judges the next generation by its size on disk, heap,
-- indexes and TOAST together (migration 17): one whose heap is under
-- settings.rotation_min_bytes but whose indexes take it over is not empty,
-- and is not turned into; one untouched since its truncation is, even with
-- rotation_min_bytes at 0.
begin;
select plan(4);

update jq.settings set rotation_turn_bytes = 262144, rotation_min_bytes = 65536;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as nxt \gset
select format('jq.jobs_g%s', :nxt) as nxt_part \gset
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2;

-- The current generation is full.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at)
select gen_random_uuid(), 'turn_filler_q', 't_filler', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now()
  from generate_series(1, 1000);
-- The next one: a small heap, its indexes over the setting.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'turn_next_q', 't_next', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :nxt
  from generate_series(1, 60);

select cmp_ok(pg_relation_size(:'nxt_part'), '<', 65536::bigint, 'the next generation''s heap is under rotation_min_bytes');
select is(jq.jq_storage_turn(), false, 'with its indexes it is over: not turned');

truncate :nxt_part;
update jq.settings set rotation_min_bytes = 0;
select is(jq.jq_storage_turn(), true, 'untouched since its truncation: turned, rotation_min_bytes 0 or not');
select is(jq._storage_current()::int, :nxt, 'the next generation is current');

select * from finish();
rollback;
