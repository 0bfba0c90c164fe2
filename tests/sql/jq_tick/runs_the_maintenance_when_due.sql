-- jq_tick runs jq_maintain every settings.maintain_interval: the call that
-- finds it due includes its report; the next one does not, and asks to be
-- called again no later than the next maintenance. A call that locked a
-- partition leaves it to the next call (not tested here: the oldest
-- generation is emptied first, and no turn is due).
begin;
select plan(4);

update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0;
select jq_test.empty_oldest();
update jq.tick_state set maintained_at = null;
create temp table first as select * from jq_test.tick();
select ok((select account ? 'maintenance' from first), 'a due maintenance runs');
select is((select account->'maintenance'->>'skipped' from first), 'false', 'and its report is in the account');
create temp table second as select * from jq_test.tick();
select ok((select not account ? 'maintenance' from second), 'the next call does not run it again');
select cmp_ok((select call_again_after from second), '<=', (select maintain_interval from jq.settings),
              'call again no later than the next maintenance');

select * from finish();
rollback;
