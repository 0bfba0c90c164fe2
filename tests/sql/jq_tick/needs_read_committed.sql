-- jq_tick refuses REPEATABLE READ and SERIALIZABLE (25001): a snapshot older
-- than its locks could miss a row it must move before the truncation.
begin transaction isolation level repeatable read;
select plan(1);
select throws_ok('select * from jq.jq_tick()', '25001', null, 'REPEATABLE READ is refused');
select * from finish();
rollback;
