-- The rotation looks at a generation once, at up to twice the move limit and
-- one more row (jq._storage_empty): when that sees every row and neither kind
-- is over the limit, they all move and the partition is truncated without
-- another look. Here it sees every row (16, of at most 21) but 15 of them
-- are bound for jobs_waiting, over the limit of 10: only the 10 due soonest
-- move with the ready job, and the rest on the next call.
begin;
select plan(5);

update jq.settings set rotation_min_bytes = 0;  -- a small generation is emptied too
update jq.settings set rotation_move_limit = 10;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select jq.jq_enqueue('t_later', jsonb_build_object('n', n), 'soonest_q', 0, now() + n * interval '1 day')
  from generate_series(1, 15) as n;
select jq.jq_enqueue('t_now', '{}', 'soonest_q');
select jq_test.store_in(id, :old) from jq.jobs where queue = 'soonest_q';

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 11)$$, 'first call: the ready job and 10 of the 15 for later');
select results_eq($$select (payload->>'n')::int from jq.jobs where type = 't_later' and generation = 3 order by 1$$,
                  $$select generate_series(1, 10)$$, 'the 10 due soonest went first');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 5)$$, 'second call: the last 5, then the truncation');
select is((select count(*)::int from jq.jobs where type = 't_later' and generation = 3), 15,
          'all 15 wait in jobs_waiting');
select is((select generation::int from jq.jobs where type = 't_now'), :cur, 'the ready job is in the current generation');

select * from finish();
rollback;
