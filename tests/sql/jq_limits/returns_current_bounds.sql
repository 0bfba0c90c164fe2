-- jq_limits returns the bounds jq.settings holds now, so a driver can check a
-- result (or a payload) before it calls: the defaults, and an admin's change
-- as soon as it is committed. max_result_bytes is 0 .. 1 MiB.
begin;
select plan(6);

select results_eq('select max_payload_bytes, max_payload_depth, max_error_length, max_result_bytes from jq.jq_limits()',
                  $$values (1048576, 64, 8000, 65536)$$, 'the defaults: 1 MiB, 64 levels, 8000 characters, 64 KiB');
select is((select count(*)::int from jq.jq_limits()), 1, 'one row');

update jq.settings set max_result_bytes = 4096, max_payload_bytes = 2048;
select results_eq('select max_payload_bytes, max_result_bytes from jq.jq_limits()', $$values (2048, 4096)$$,
                  'a changed setting is what jq_limits answers');

select throws_ok('update jq.settings set max_result_bytes = 1048577', '23514', null,
                 'max_result_bytes above 1 MiB is refused');
select throws_ok('update jq.settings set max_result_bytes = -1', '23514', null, 'and below 0');
select lives_ok('update jq.settings set max_result_bytes = 0', '0 (no results stored) is allowed');

select * from finish();
rollback;
