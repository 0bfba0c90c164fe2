-- jq_storage_turn ends the current slot early once its generation's heap has
-- reached settings.rotation_turn_bytes and the next generation is empty: new
-- rows go into the next generation at once, the full one becomes the
-- previous generation and the next jq_storage_rotate empties and truncates
-- it, live jobs moved, not lost.
begin;
select plan(12);

select is((select rotation_turn_bytes from jq.settings), 2097152, 'rotation_turn_bytes is 2 MB by default');
update jq.settings set rotation_turn_bytes = 262144, rotation_min_bytes = 0;

select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as nxt \gset
select format('jq.jobs_g%s', :cur) as cur_part \gset
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2;
select pg_sequence_last_value('jq.storage_slot_turns') as turns_before \gset

select jq.jq_enqueue('t_turn', '{}', 'turn_q') from generate_series(1, 5);
select is(jq.jq_storage_turn(), false, 'five jobs: not full, not turned');
select is(pg_sequence_last_value('jq.storage_slot_turns'), :'turns_before'::bigint, 'the count of turns is unchanged');

-- A flood's dead row versions, written through the default into the current generation.
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at)
select gen_random_uuid(), 'turn_filler_q', 't_filler', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now()
  from generate_series(1, 1000);
delete from jq.jobs where queue = 'turn_filler_q';
select cmp_ok(pg_relation_size(:'cur_part'), '>=', 262144::bigint, 'the current generation has reached the setting');

select is(jq.jq_storage_turn(), true, 'full and the next generation empty: turned');
select is(pg_sequence_last_value('jq.storage_slot_turns'), :'turns_before'::bigint + 1, 'one turn counted');
select is(jq._storage_current()::int, :nxt, 'the next generation is current at once');
select e.job_id as late_job from jq.jq_enqueue('t_turn', '{}', 'turn_q') e \gset
select is((select generation::int from jq.jobs where id = :'late_job'), :nxt, 'a job enqueued now goes into it');
select is((select role from jq.jq_storage() where partition_name = 'jobs_g' || :cur), 'previous',
          'jq_storage: the full one is the previous generation');
select is(jq.jq_storage_turn(), false, 'the new generation is not full: no second turn');

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :cur),
                  $$values ('truncated'::text, 5)$$, 'the next rotation empties the full generation, its five jobs moved');
select is((select count(*)::int from jq.jobs where queue = 'turn_q' and generation = :nxt), 6,
          'all six jobs are in the current generation');

select * from finish();
rollback;
