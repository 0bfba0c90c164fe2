-- jq_tick empties the oldest generation (the next to become current) and
-- TRUNCATEs it: a ready job, a running one (lease, worker and attempts
-- kept: its worker completes it after the move), a retrying one and one
-- scheduled within settings.waiting_horizon move into the current
-- generation; one scheduled beyond it moves into jobs_waiting. Nothing is
-- lost and the partition gets a new, empty file.
begin;
select plan(14);

select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select format('jq.jobs_g%s', :old) as old_part \gset

select e.job_id as ready from jq.jq_enqueue('t_ready', '{}', 'rot_q') e \gset
select e.job_id as running from jq.jq_enqueue('t_run', '{}', 'rot_q') e \gset
select c.id as running_claimed from jq.jq_claim('rot_q', 'w1', 1, '5 minutes', array['t_run']) c \gset
select e.job_id as retrying from jq.jq_enqueue('t_retry', '{}', 'rot_q') e \gset
select count(*) as n_claimed from jq.jq_claim('rot_q', 'w1', 1, '5 minutes', array['t_retry']) \gset
select count(*) as n_failed from jq.jq_fail(:'retrying', 'w1', 'boom', interval '30 seconds') \gset
select e.job_id as soon from jq.jq_enqueue('t_soon', '{}', 'rot_q', 0, now() + interval '1 minute') e \gset
select e.job_id as later from jq.jq_enqueue('t_later', '{}', 'rot_q', 0, now() + interval '1 hour') e \gset
select jq_test.store_in(id, :old) from jq.jobs where queue = 'rot_q';
create temp table before as
select id, status, locked_by, locked_until, attempts, run_at, deferred from jq.jobs where queue = 'rot_q';
select pg_relation_filenode(:'old_part') as filenode_before \gset
select truncations as truncations_before from jq.storage_generations where generation = :old \gset

select is(:'running'::uuid, :'running_claimed'::uuid, 'the running job is claimed by w1');
select is((select count(*)::int from jq.jobs where queue = 'rot_q' and generation = :old), 5,
          'five live jobs sit in the oldest generation');

create temp table ticked as select * from jq_test.tick();
select is((select account->>'rotation' from ticked), 'truncated', 'the oldest generation is truncated');
select is((select (account->>'generation')::int from ticked), :old, 'the account names it');
select is((select (account->>'moved')::int from ticked), 5, 'and the 5 rows moved out of it');
select is((select count(*)::int from jq.jobs where queue = 'rot_q'), 5, 'all five jobs are still live');
select set_eq($$select id from jq.jobs where queue = 'rot_q' and generation = $$ || :cur,
              format('values (%L::uuid), (%L::uuid), (%L::uuid), (%L::uuid)',
                     :'ready', :'running', :'retrying', :'soon'),
              'ready, running, retrying and due-within-the-horizon jobs moved into the current generation');
select is((select generation::int from jq.jobs where id = :'later'), 3,
          'the job due in an hour moved into jobs_waiting');
select is_empty($$select b.id from before b join jq.jobs j using (id)
                   where (j.status, j.locked_by, j.locked_until, j.attempts, j.run_at, j.deferred)
                         is distinct from (b.status, b.locked_by, b.locked_until, b.attempts, b.run_at, b.deferred)$$,
                'every job kept its status, lease, attempts and run_at');
select is(pg_relation_size(:'old_part'), 0::bigint, 'its heap has no pages left');
select isnt(pg_relation_filenode(:'old_part'), :'filenode_before'::oid, 'it was truncated: a new file');
select is((select truncations from jq.storage_generations where generation = :old),
          :truncations_before + 1::bigint, 'jq.storage_generations counts the truncation');
select is((select array_agg(c) from jq.jq_complete(array[:'running'::uuid], 'w1') c),
          array[:'running'::uuid], 'the worker completes its moved job: the lease held');
select is((select status from jq.jq_status(:'ready')), 'queued', 'jq_status finds a moved job');

select * from finish();
rollback;
