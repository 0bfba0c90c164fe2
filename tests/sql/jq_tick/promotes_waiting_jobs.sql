-- Jobs of jobs_waiting that come due within settings.waiting_horizon move
-- back into the current generation, soonest first, a batch a call; the others stay.
begin;
select plan(4);

update jq.settings set rotation_move_batch = 10;
select jq_test.at_slot_start() as cur \gset
select e.job_id as soon from jq.jq_enqueue('t_w', '{}', 'wait_q', 0, now() + interval '1 minute') e \gset
select e.job_id as later from jq.jq_enqueue('t_w', '{}', 'wait_q', 0, now() + interval '1 day') e \gset
select jq_test.store_in(id, 3) from jq.jobs where queue = 'wait_q';

create temp table ticked as select * from jq_test.tick();
select cmp_ok((select (account->>'promoted')::int from ticked), '>=', 1, 'the account counts the promoted jobs');
select is((select generation::int from jq.jobs where id = :'soon'), :cur, 'the job due within the horizon is back');
select is((select generation::int from jq.jobs where id = :'later'), 3, 'the job due tomorrow still waits');
select is((select status from jq.jq_status(:'soon')), 'scheduled', 'still scheduled');

select * from finish();
rollback;
