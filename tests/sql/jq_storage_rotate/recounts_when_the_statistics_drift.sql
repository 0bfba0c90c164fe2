-- The statistics spare the count of a backlog over ten times
-- settings.rotation_move_limit, but they drift: a truncation resets a
-- partition's counters while other sessions still hold changes they have
-- not reported, and those land on the emptied partition afterwards (figure
-- f: 10,000 live rows read as 35,000, the generation taken for a backlog and
-- never emptied). So they are believed only while the last count said "over"
-- too and is under 10 s old; then the rows are counted again. Drifted
-- statistics are stood in by jq._storage_live_by_statistics (rolled back).
begin;
select plan(8);

update jq.settings set rotation_move_limit = 10;  -- "over": 101 live rows or more
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
insert into jq.jobs (id, queue, type, payload, run_at, max_attempts, created_at, generation)
select gen_random_uuid(), 'drift_q', 't_churn', jsonb_build_object('pad', repeat('x', 300)), now(), 5, now(), :old
  from generate_series(1, 3500);
delete from jq.jobs where queue = 'drift_q' and id not in (select id from jq.jobs where queue = 'drift_q' limit 30);

create or replace function jq._storage_live_by_statistics(p_part regclass) returns bigint
language sql stable as $$ select 1000000::bigint $$;

-- Counted over the limit 2 s ago (it was a backlog then).
update jq.storage_generations set live_rows = 101, live_at = clock_timestamp() - interval '2 s'
 where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'the statistics say a million, the last count over: a backlog');
select is((select live_rows from jq.storage_generations where generation = :old), 101,
          'not counted: the last count (over the limit) stands');

-- That count is 11 s old: counted again, whatever the statistics say.
update jq.storage_generations set live_at = clock_timestamp() - interval '11 s' where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'counted again: 30, a change, noted');
select is((select live_rows from jq.storage_generations where generation = :old), 30,
          'the real count replaces the statistics''');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'a count under the limit is taken at every call: the same 30');

-- The 30 stood still for 10 s: emptied although the statistics still say a million.
update jq.storage_generations set live_at = clock_timestamp() - interval '11 s' where generation = :old;
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'stood still and mostly dead: emptied, 10 a call');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'the next 10');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 10)$$, 'the last 10, and the generation is truncated');

select * from finish();
rollback;
