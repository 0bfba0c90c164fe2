-- At most settings.rotation_move_batch rows move per call, so the lock that
-- every claim waits for stays short: the call answers moving and asks to be
-- called again at once; the next call moves the rest and truncates.
begin;
select plan(6);

update jq.settings set rotation_move_batch = 10, rotation_move_limit = 100;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 't_b', 'queue', 'batch_q'))
                                           from generate_series(1, 25)));
select jq_test.store_in(id, :old) from jq.jobs where queue = 'batch_q';

create temp table t1 as select * from jq_test.tick();
select is((select account->>'rotation' from t1), 'moving', 'the first call leaves rows to move');
select is((select (account->>'moved')::int from t1), 10, 'it moved one batch');
select is((select call_again_after from t1), interval '0', 'and asks to be called again at once');
select * from jq_test.tick();
create temp table t3 as select * from jq_test.tick();
select is((select account->>'rotation' from t3), 'truncated', 'the third call moves the last 5 and truncates');
select is((select (account->>'moved')::int from t3), 5, 'the last 5 rows');
select is((select count(*)::int from jq.jobs where queue = 'batch_q' and generation = :cur), 25,
          'every job is in the current generation');

select * from finish();
rollback;
