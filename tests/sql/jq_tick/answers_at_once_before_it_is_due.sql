-- A call before the time the last one asked for (jq.tick_due) does nothing
-- and says how long is left, so any number of workers calling jq_tick cost
-- about one tick; a call once it is due runs and sets the next due time.
begin;
select plan(4);

update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0;  -- quiet: call again in 2 s
select jq_test.empty_oldest();
update jq.tick_state set maintained_at = now();  -- no maintenance due
create temp table ran as select * from jq_test.tick();
select is((select account->>'ran' from ran), 'true', 'a due call runs');
create temp table early as select * from jq.jq_tick();
select is((select account->>'ran' from early), 'false', 'a call before the due time does nothing');
select ok((select e.call_again_after > interval '0' and e.call_again_after <= r.call_again_after
             from early e, ran r),
          'and answers the time left');
select setval('jq.tick_due', 0);
create temp table again as select * from jq.jq_tick();
select is((select account->>'ran' from again), 'true', 'once due, it runs again');

select * from finish();
rollback;
