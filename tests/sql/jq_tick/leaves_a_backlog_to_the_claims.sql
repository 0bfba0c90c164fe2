-- A generation holding more live rows than settings.rotation_move_limit is
-- a backlog, left to the claims while they take from it: jq_tick moves
-- nothing, and still turns into it when the current generation is due (a
-- flood's generations each hold a turn's writes). Once the claims have
-- taken nothing from it for settings.rotation_backlog_wait (a paused queue
-- never drains), it is moved batch by batch like any other.
begin;
select plan(10);

update jq.settings set rotation_move_batch = 10, rotation_move_limit = 15, rotation_backlog_wait = '1 minute',
                       rotation_min_bytes = 0, rotation_turn_bytes = 0;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 't_bl', 'queue', 'backlog_q'))
                                           from generate_series(1, 30)));
select jq_test.store_in(id, :old) from jq.jobs where queue = 'backlog_q';
select jq_test.age_generation(:cur, '0');  -- the current one is too young to turn
update jq.storage_generations set taken = null, taken_at = null where generation = :old;

create temp table t1 as select * from jq_test.tick();
select is((select account->>'rotation' from t1), 'backlog', 'over the move limit: a backlog');
select is((select count(*)::int from jq.jobs where queue = 'backlog_q' and generation = :old), 30, 'nothing moved');
select ok((select call_again_after between interval '1 second' and (select rotation_turn_after from jq.settings)
             from t1),
          'it asks to be called again within rotation_turn_after');
select isnt((select taken_at from jq.storage_generations where generation = :old), null,
            'it notes what the claims had taken, and when');

-- The claims took nothing for longer than rotation_backlog_wait.
update jq.storage_generations set taken_at = clock_timestamp() - interval '2 minutes' where generation = :old;
create temp table t2 as select * from jq_test.tick();
select is((select account->>'rotation' from t2), 'moving', 'a backlog the claims left alone moves');
select is((select (account->>'moved')::int from t2), 10, 'one batch a call');
select is((select count(*)::int from jq.jobs where queue = 'backlog_q' and generation = :cur), 10,
          'into the current generation');

-- The claims take from it again, and the current generation is due: it turns into the backlog.
update jq.storage_generations set taken_at = clock_timestamp() where generation = :old;
select jq_test.age_generation(:cur, '1 hour');
create temp table t3 as select * from jq_test.tick();
select is((select account->>'rotation' from t3), 'backlog', 'still a backlog');
select is((select account->>'turned' from t3), 'true', 'and the call turned');
select is(jq._storage_current()::int, :old, 'into the backlog''s generation');

select * from finish();
rollback;
