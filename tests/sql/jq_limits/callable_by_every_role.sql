-- Every jq role may read the bounds (workers check results before
-- jq_complete, producers payloads before jq_enqueue), and jq_admin may change
-- max_result_bytes (the column grant in sql/roles.sql).
begin;
select plan(4);

select ok(has_function_privilege('jq_producer', 'jq.jq_limits()', 'execute'), 'jq_producer may call jq_limits');
select ok(has_function_privilege('jq_worker', 'jq.jq_limits()', 'execute'), 'jq_worker may call jq_limits');

set local role jq_worker;
select results_eq('select max_result_bytes from jq.jq_limits()', $$values (65536)$$,
                  'a worker reads the bound through the function (no table privilege needed)');
reset role;

select ok(has_column_privilege('jq_admin', 'jq.settings', 'max_result_bytes', 'update'),
          'jq_admin may update max_result_bytes');

select * from finish();
rollback;
