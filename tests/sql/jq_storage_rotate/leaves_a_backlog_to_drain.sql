-- A generation holding more live rows than settings.rotation_move_limit is
-- a backlog: jq_storage_rotate moves nothing ('draining') and leaves it to
-- the claims; at the limit it is moved and truncated. The current
-- generation is never touched.
begin;
select plan(5);

update jq.settings set rotation_min_bytes = 0;  -- a small generation is emptied too

update jq.settings set rotation_move_limit = 10;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
-- Start from an empty partition: dead rows other files left in it (rolled back
-- inserts) would make it "mostly dead", which is emptied whatever its live rows.
select format('jq.jobs_g%s', :old) as old_part \gset
truncate :old_part;
select jq.jq_enqueue('t_backlog', '{}', 'backlog_q') from generate_series(1, 11);
select jq.jq_enqueue('t_current', '{}', 'backlog_q');
select jq_test.store_in(id, :old) from jq.jobs where type = 't_backlog';

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('draining'::text, 0)$$, 'eleven live rows over a limit of ten: draining');
select is((select count(*)::int from jq.jobs where generation = :old), 11, 'nothing moved');

delete from jq.jobs where id = (select id from jq.jobs where type = 't_backlog' limit 1);
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 10)$$, 'ten live rows: moved and truncated');
select is((select count(*)::int from jq.jobs where type = 't_backlog' and generation = :cur), 10,
          'the ten are in the current generation');
select is_empty(format('select 1 from jq.jq_storage_rotate() where generation = %s', :cur),
                'the current generation is never a candidate');

select * from finish();
rollback;
