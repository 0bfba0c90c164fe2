-- A generation holding more live rows than settings.rotation_move_limit is
-- a backlog: the claims drain it, so jq_tick moves nothing and never turns
-- into it. Once it has waited settings.rotation_backlog_wait (a paused
-- queue never drains), it is moved batch by batch like any other.
begin;
select plan(7);

update jq.settings set rotation_move_batch = 10, rotation_move_limit = 20, rotation_backlog_wait = '1 minute',
                       rotation_min_bytes = 0;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 't_bl', 'queue', 'backlog_q'))
                                           from generate_series(1, 30)));
select jq_test.store_in(id, :old) from jq.jobs where queue = 'backlog_q';
select jq_test.age_generation((:cur + 2) % 3, '10 seconds');  -- the oldest stopped taking rows 10 s ago
select jq_test.age_generation(:cur, '1 hour');  -- the current one is old enough to turn

create temp table t1 as select * from jq.jq_tick();
select is((select account->>'rotation' from t1), 'backlog', 'over the move limit: a backlog');
select is((select count(*)::int from jq.jobs where queue = 'backlog_q' and generation = :old), 30, 'nothing moved');
select is(jq._storage_current()::int, :cur, 'no turn while the oldest generation holds rows');
select ok((select call_again_after between interval '1 second' and interval '50 seconds' from t1),
          'it asks to be called again within the wait left');

select jq_test.age_generation((:cur + 2) % 3, '2 minutes');
create temp table t2 as select * from jq.jq_tick();
select is((select account->>'rotation' from t2), 'moving', 'after rotation_backlog_wait the rows move');
select is((select (account->>'moved')::int from t2), 10, 'one batch a call');
select is((select count(*)::int from jq.jobs where queue = 'backlog_q' and generation = :cur), 10,
          'into the current generation');

select * from finish();
rollback;
