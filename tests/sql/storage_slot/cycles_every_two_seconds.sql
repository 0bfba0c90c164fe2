-- jq._storage_slot, the default of jq.jobs.generation: two-second slots take
-- the generations 0, 1, 2 in turn; a new job is stored in the generation of
-- the slot its statement began in; the planner inlines it (no table read).
begin;
select plan(5);

select is(array(select jq._storage_slot(timestamptz '2026-12-01 00:00:00+00' + k * interval '1 second')::int
                  from generate_series(0, 7) k),
          array(select ((jq._storage_slot(timestamptz '2026-12-01 00:00:00+00')::int + k / 2) % 3)
                  from generate_series(0, 7) k),
          'two seconds per slot, generations in turn');
select is(jq._storage_slot(timestamptz '2026-12-01 00:00:01.999+00'),
          jq._storage_slot(timestamptz '2026-12-01 00:00:00+00'), 'a slot holds its whole two seconds');
select e.job_id as job from jq.jq_enqueue('t_slot', '{}', 'slot_q') e \gset
select is((select generation from jq.jobs where id = :'job'),
          (select jq._storage_slot(created_at) from jq.jobs where id = :'job'),
          'a new job is in the generation of its slot');
select is((select tableoid::regclass::text from jq.jobs where id = :'job'),
          'jq.jobs_g' || (select generation from jq.jobs where id = :'job'), 'generation n is stored in jq.jobs_gn');
select is((select provolatile from pg_proc where oid = 'jq._storage_slot(timestamptz)'::regprocedure), 'i',
          'immutable, so an INSERT inlines it');

select * from finish();
rollback;
