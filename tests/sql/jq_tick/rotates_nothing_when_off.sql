-- settings.rotate_storage off: jq_tick neither empties nor turns, so every
-- row stays in the current generation (a plain table, vacuumed as usual).
begin;
select plan(3);

update jq.settings set rotate_storage = false, rotation_min_bytes = 0;
select jq_test.at_slot_start() as cur \gset
select jq.jq_enqueue('t_off', '{}', 'off_q');
select jq_test.store_in(id, (:cur + 1) % 3) from jq.jobs where queue = 'off_q';
select jq_test.age_generation(:cur, '1 hour');
create temp table ticked as select * from jq_test.tick();
select is((select account->>'rotation' from ticked), 'off', 'the account says the rotation is off');
select is(jq._storage_current()::int, :cur, 'no turn');
select is((select generation::int from jq.jobs where queue = 'off_q'), (:cur + 1) % 3, 'no row moved');

select * from finish();
rollback;
