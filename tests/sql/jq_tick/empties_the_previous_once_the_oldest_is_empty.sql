-- With the oldest generation empty, jq_tick empties the previous one (the
-- generation it turned away from last), so that only the current generation
-- keeps dead row versions for long; the current one is never emptied.
begin;
select plan(4);

update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0;  -- no turn here
select jq_test.empty_oldest();
select jq_test.at_slot_start() as cur \gset
select (:cur + 2) % 3 as prev \gset
select e.job_id as in_prev from jq.jq_enqueue('t_prev', '{}', 'prev_q') e \gset
select e.job_id as in_cur from jq.jq_enqueue('t_prev', '{}', 'prev_q') e \gset
select jq_test.store_in(:'in_prev', :prev);

create temp table ticked as select * from jq_test.tick();
select is((select account->>'rotation' from ticked), 'truncated', 'the previous generation is truncated');
select is((select (account->>'generation')::int from ticked), :prev, 'the account names it');
select is((select generation::int from jq.jobs where id = :'in_prev'), :cur, 'its job moved into the current one');
select is((select generation::int from jq.jobs where id = :'in_cur'), :cur, 'the current one keeps its job');

select * from finish();
rollback;
