-- The generation a new row goes into is the count of turns modulo 3
-- (jq._storage_generation of jq.storage_turns): the default of
-- jq.jobs.generation and of jq.queue_waiters.generation.
begin;
select plan(4);

select is(jq._storage_generation(0), 0::smallint, 'no turn yet: generation 0');
select is(jq._storage_generation(4), 1::smallint, 'four turns: generation 1');
select is(jq._storage_generation(null), 0::smallint, 'a reset sequence (null): generation 0');
select e.job_id as job from jq.jq_enqueue('t_gen', '{}', 'gen_q') e \gset
select is((select generation from jq.jobs where id = :'job'),
          jq._storage_generation(pg_sequence_last_value('jq.storage_turns')), 'a new job goes where the turns say');

select * from finish();
rollback;
