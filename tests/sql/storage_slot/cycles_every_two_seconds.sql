-- jq._storage_slot and jq._storage_generation, the default of
-- jq.jobs.generation: two-second slots take the generations 0, 1, 2 in turn,
-- each slot ended early (jq.storage_slot_turns) moves them on by one; a new
-- job is stored in the generation of the slot its statement began in; the
-- planner inlines it (no function called per row but the sequence's read).
begin;
select plan(10);

create function pg_temp.plan_of(p_query text) returns text language plpgsql as $$
declare
    v_line text;
    v_plan text := '';
begin
    for v_line in execute 'explain (verbose, costs off) ' || p_query loop
        v_plan := v_plan || v_line || e'\n';
    end loop;
    return v_plan;
end
$$;

select is(array(select jq._storage_slot(timestamptz '2026-12-01 00:00:00+00' + k * interval '1 second')::int
                  from generate_series(0, 7) k),
          array(select ((jq._storage_slot(timestamptz '2026-12-01 00:00:00+00')::int + k / 2) % 3)
                  from generate_series(0, 7) k),
          'two seconds per slot, generations in turn');
select is(jq._storage_slot(timestamptz '2026-12-01 00:00:01.999+00'),
          jq._storage_slot(timestamptz '2026-12-01 00:00:00+00'), 'a slot holds its whole two seconds');
select e.job_id as job from jq.jq_enqueue('t_slot', '{}', 'slot_q') e \gset
select is((select generation from jq.jobs where id = :'job'),
          (select jq._storage_generation(created_at, pg_sequence_last_value('jq.storage_slot_turns'))
             from jq.jobs where id = :'job'),
          'a new job is in the generation of its slot, counted with the turns');
select is(array(select jq._storage_generation(timestamptz '2026-12-01 00:00:00+00', k)::int
                  from generate_series(0, 3) k),
          array(select (jq._storage_slot(timestamptz '2026-12-01 00:00:00+00')::int + k) % 3
                  from generate_series(0, 3) k),
          'each turn moves the generation on by one');
select is(jq._storage_generation(timestamptz '2026-12-01 00:00:00+00', null),
          jq._storage_slot(timestamptz '2026-12-01 00:00:00+00'), 'no count of turns (a reset sequence): none');
select is(jq._storage_current(), jq._storage_generation(clock_timestamp(), pg_sequence_last_value('jq.storage_slot_turns')),
          'jq._storage_current: the generation a row inserted now goes to');
select is((select tableoid::regclass::text from jq.jobs where id = :'job'),
          'jq.jobs_g' || (select generation from jq.jobs where id = :'job'), 'generation n is stored in jq.jobs_gn');
select is(array(select jq._storage_slot(t) from unnest(array[timestamptz '2026-12-01 00:00:00.000001+00',
                                                               '2026-12-01 00:00:03.5+05', '2038-01-19 03:14:08+00',
                                                               '1970-01-01 00:00:05+00']) t),
          array(select (floor(extract(epoch from t) / 2)::bigint % 3)::smallint
                  from unnest(array[timestamptz '2026-12-01 00:00:00.000001+00', '2026-12-01 00:00:03.5+05',
                                    '2038-01-19 03:14:08+00', '1970-01-01 00:00:05+00']) t),
          'the slot of the epoch seconds, whatever the time zone');
-- Not only declared IMMUTABLE: a body that calls a STABLE function (as
-- extract(epoch from timestamptz) is) is called per row, not inlined.
select doesnt_match(pg_temp.plan_of($q$insert into jq.jobs (id, queue, type, run_at, max_attempts, created_at)
                                      values (gen_random_uuid(), 'slot_q', 't_slot', now(), 3, now())$q$),
                    '_storage_(slot|generation)', 'an INSERT into jq.jobs inlines the default: no function call per row');
select doesnt_match(pg_temp.plan_of('select jq._storage_slot(clock_timestamp())'), '_storage_slot',
                    'so does any statement that calls it');

select * from finish();
rollback;
