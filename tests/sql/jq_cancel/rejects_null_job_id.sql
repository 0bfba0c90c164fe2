-- A null job id is bad input: SQLSTATE 22004 (null_value_not_allowed).
begin;
select plan(1);

select throws_ok('select jq.jq_cancel(null)', '22004', null, 'jq_cancel(null) raises 22004');

select * from finish();
rollback;
