-- jq_storage_turn never turns into a generation that is not empty (a backlog
-- the claims drain, dead rows not yet truncated: under
-- settings.rotation_min_bytes counts as empty), and never with
-- rotation_turn_bytes at 0; the setting refuses what is out of range.
begin;
select plan(6);

update jq.settings set rotation_turn_bytes = 262144, rotation_min_bytes = 65536;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as nxt \gset
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2;
select pg_sequence_last_value('jq.storage_slot_turns') as turns_before \gset

insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at)
select gen_random_uuid(), 'turn_filler_q', 't_filler', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now()
  from generate_series(1, 1000);
-- The next generation holds a backlog of its own.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'turn_backlog_q', 't_backlog', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :nxt
  from generate_series(1, 300);

select is(jq.jq_storage_turn(), false, 'the next generation holds rows over rotation_min_bytes: not turned');
select is(jq._storage_current()::int, :cur, 'the current generation stays');

truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2;
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at)
select gen_random_uuid(), 'turn_filler_q', 't_filler', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now()
  from generate_series(1, 1000);
update jq.settings set rotation_turn_bytes = 0;
select is(jq.jq_storage_turn(), false, 'rotation_turn_bytes 0: never');
select is(pg_sequence_last_value('jq.storage_slot_turns'), :'turns_before'::bigint, 'no turn counted');

select throws_ok($$update jq.settings set rotation_turn_bytes = -1$$, '23514', null, 'a negative setting is refused');
select throws_ok($$update jq.settings set rotation_turn_bytes = 2147483647$$, '23514', null, 'over 1 GB is refused');

select * from finish();
rollback;
