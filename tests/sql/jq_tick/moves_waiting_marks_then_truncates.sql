-- The waiting workers' marks (jq.queue_waiters) go with their generation:
-- once the oldest generation's jobs are gone, its marks are copied into the
-- current generation (worker, backend and since kept) and its partition is
-- truncated, so the NOTIFY trigger still finds the waiting worker.
begin;
select plan(5);

select jq_test.empty_oldest();
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select jq.jq_set_waiting(array['marks_q'], 'w-marks', true);
update jq.queue_waiters set generation = :old where worker = 'w-marks';
select since as since_before from jq.queue_waiters where worker = 'w-marks' \gset
select marks_truncations as n_before from jq.storage_generations where generation = :old \gset

create temp table ticked as select * from jq_test.tick();
select is((select (account->>'marks_moved')::int from ticked), 1, 'one mark moved');
select is((select generation::int from jq.queue_waiters where worker = 'w-marks'), :cur,
          'into the current generation');
select is((select since from jq.queue_waiters where worker = 'w-marks'), :'since_before'::timestamptz,
          'since kept');
select is(pg_relation_size(format('jq.queue_waiters_g%s', :old)::regclass), 0::bigint, 'the partition is truncated');
select is((select marks_truncations from jq.storage_generations where generation = :old), :n_before + 1::bigint,
          'jq.storage_generations counts it');

select * from finish();
rollback;
