-- Jobs in jobs_waiting come back into the current generation once they fall
-- due within settings.waiting_horizon; the others stay. A waiting job is
-- claimable where it is when no rotation ran: storage never decides what runs.
begin;
select plan(5);

select jq_test.at_slot_start() as cur \gset
select e.job_id as soon from jq.jq_enqueue('t_w', '{}', 'wait_q', 0, now() + interval '4 minutes') e \gset
select e.job_id as later from jq.jq_enqueue('t_w', '{}', 'wait_q', 0, now() + interval '2 hours') e \gset
select jq_test.store_in(:'soon', 3), jq_test.store_in(:'later', 3);

select results_eq('select outcome, moved from jq.jq_storage_rotate() where generation = 3',
                  $$values ('promoted'::text, 1)$$, 'one waiting job falls due within the horizon');
select is((select generation::int from jq.jobs where id = :'soon'), :cur, 'it is in the current generation');
select is((select generation::int from jq.jobs where id = :'later'), 3, 'the job due in two hours still waits');

select jq_test.set_now(now() + interval '3 hours') \gset
select is((select c.id from jq.jq_claim('wait_q', 'w1', 10, '1 minute') c where c.id = :'later'), :'later'::uuid,
          'once due, a job in jobs_waiting is claimed from there');
select is((select count(*)::int from jq.jobs where queue = 'wait_q' and status = 'processing'), 2,
          'both jobs run');

select * from finish();
rollback;
