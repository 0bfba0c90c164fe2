-- Under REPEATABLE READ a snapshot taken before the lock could miss rows the
-- rotation must move: jq_storage_rotate refuses (25001) and changes nothing.
begin isolation level repeatable read;
select plan(2);

select sum(truncations)::int as before from jq.storage_generations \gset

select throws_ok('select * from jq.jq_storage_rotate()', '25001',
                 'jq_storage_rotate needs READ COMMITTED, not repeatable read',
                 'refused under REPEATABLE READ, naming the isolation level');
select is((select sum(truncations)::int from jq.storage_generations), :before, 'nothing was truncated');

select * from finish();
rollback;
