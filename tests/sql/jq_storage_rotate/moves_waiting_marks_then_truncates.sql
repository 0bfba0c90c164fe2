-- The marks of jq.queue_waiters rotate with the jobs (migration 14): when
-- jq_storage_rotate empties a generation (here its jobs partition is empty
-- on disk, so only the marks move), the generation's marks move into the
-- current one with worker, backend and since kept, its partition is
-- TRUNCATEd and the call reports it in a row of its own (and jq_storage, as
-- that partition's truncation); an insert of a
-- ready job then still notifies the moved mark and uses it up. pg_notify is
-- shadowed by a recorder, as in tests/sql/notify; everything rolls back.
-- (settings.rotation_min_bytes 0: three marks are far under a quarter of its
-- default, which keeps them: keeps_a_small_generation.sql.)
begin;
select plan(12);

update jq.settings set rotation_min_bytes = 0;

create table jq_test.sent (n serial, channel text, payload text);
create function jq.pg_notify(p_channel text, p_payload text) returns void
language sql as $$ insert into jq_test.sent (channel, payload) values (p_channel, p_payload) $$;

select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select format('jq.queue_waiters_g%s', :old) as old_part \gset
-- Rolled back: only the marks have anything to move, and no partition keeps
-- pages of earlier tests.
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2, jq.queue_waiters_g0, jq.queue_waiters_g1, jq.queue_waiters_g2;

select jq.jq_set_waiting(array['mk_q'], 'w1', true) \gset
select jq.jq_set_waiting(array['mk_q', 'mk_other'], 'w2', true) \gset
update jq.queue_waiters set backend_pid = 4242 where worker = 'w2';  -- another worker's backend
update jq.queue_waiters set generation = :old, since = since - interval '1 minute';
create temp table before as select queue, worker, backend_pid, since from jq.queue_waiters;
select pg_relation_size(:'old_part') as size_before \gset
select marks_truncations as truncations_before from jq.storage_generations where generation = :old \gset

select is((select count(*)::int from jq.queue_waiters where generation = :old), 3,
          'three marks sit in the oldest generation');

create temp table rotated as select row_number() over () as n, * from jq.jq_storage_rotate();
select results_eq(format('select outcome, moved from rotated where generation = %s order by n', :old),
                  $$values ('marks truncated'::text, 3), ('empty', 0)$$,
                  'the oldest generation: its marks moved and truncated (their row first), its jobs empty');
select set_eq('select queue, worker, backend_pid, since from jq.queue_waiters',
              'select queue, worker, backend_pid, since from before',
              'every mark kept its queue, worker, backend and since');
select is((select array_agg(distinct generation)::int[] from jq.queue_waiters), array[:cur],
          'all of them are in the current generation now');
select is(pg_relation_size(:'old_part'), 0::bigint, 'the marks partition has no pages left');
select cmp_ok(:size_before::bigint, '>', 0::bigint, 'where it had some before');
select is_empty(format('select 1 from rotated where generation = %s and outcome like %L', (:old + 1) % 3, 'marks%'),
                'a generation without marks gets no marks row');
select results_eq(format($$select truncations, moved, truncated_at is not null from jq.jq_storage()
                           where partition_name = 'queue_waiters_g%s'$$, :old),
                  format('values (%s::bigint, 3::bigint, true)', :truncations_before + 1),
                  'jq_storage reports the marks partition''s truncation and the marks moved');
select is((select truncations from jq.jq_storage() where partition_name = format('jobs_g%s', :old)),
          (select truncations from jq.storage_generations where generation = :old),
          'apart from the jobs partition''s own record');

select e.job_id as ready from jq.jq_enqueue('t', '{}', 'mk_q') e \gset
select results_eq($$select channel, payload from jq_test.sent$$, $$values ('jq_mk_q', '')$$,
                  'an insert of a ready job notifies the queue of the moved marks');
select is_empty($$select 1 from jq.queue_waiters where queue = 'mk_q'$$, 'and uses both marks of its queue up');
select results_eq($$select queue, worker from jq.queue_waiters$$, $$values ('mk_other', 'w2')$$,
                  'the other queue keeps its mark');

select * from finish();
rollback;
