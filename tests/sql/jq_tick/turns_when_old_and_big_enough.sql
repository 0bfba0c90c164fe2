-- Once the oldest generation is empty, jq_tick turns: the next insert goes
-- into it. It turns when the current generation is settings.rotation_turn_after
-- old and holds settings.rotation_min_bytes on disk, or as soon as its heap
-- reaches settings.rotation_turn_bytes; a quiet current generation stays.
begin;
select plan(10);

update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0;
select jq_test.empty_oldest();
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as next \gset
select is(jq._storage_untouched(format('jq.jobs_g%s', :next)::regclass), true, 'the next generation is empty');

select jq_test.age_generation(:cur, '1 hour');
create temp table quiet as select * from jq_test.tick();
select is((select account->>'rotation' from quiet), 'idle', 'under rotation_min_bytes: no turn, however old');
select is((select call_again_after from quiet), (select rotation_turn_after from jq.settings),
          'a quiet generation: call again after rotation_turn_after');

update jq.settings set rotation_min_bytes = 0;
select jq_test.age_generation(:cur, '0');
create temp table young as select * from jq_test.tick();
select is((select account->>'rotation' from young), 'idle', 'younger than rotation_turn_after: no turn');
select cmp_ok((select call_again_after from young), '<=', (select tick_interval from jq.settings),
              'while jobs flow: call again within tick_interval');

select jq_test.age_generation(:cur, '1 hour');
create temp table turned as select * from jq_test.tick();
select is((select account->>'rotation' from turned), 'turned', 'old enough and not quiet: turned');
select is(jq._storage_current()::int, :next, 'the next generation is current');
select e.job_id as fresh from jq.jq_enqueue('t_turn', '{}', 'turn_q') e \gset
select is((select generation::int from jq.jobs where id = :'fresh'), :next, 'a new job goes into it');

-- Full: turns however young.
update jq.settings set rotation_turn_bytes = 8192, rotation_turn_after = '1 hour', rotation_min_bytes = 1073741824;
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 't_full', 'queue', 'turn_q'))
                                           from generate_series(1, 200)));
select jq_test.empty_oldest();
create temp table full_turn as select * from jq_test.tick();
select is((select account->>'rotation' from full_turn), 'turned', 'a full generation turns at once');
select is(jq._storage_current()::int, (:next + 1) % 3, 'to the generation after it');

select * from finish();
rollback;
