-- A page size outside 1..1000 or null is refused with its SQLSTATE.
begin;
select plan(3);

select throws_ok($$select * from jq.jq_audit_log(p_limit => 0)$$, '22023', 'limit 0 is out of range', 'limit 0');
select throws_ok($$select * from jq.jq_audit_log(p_limit => 1001)$$, '22023', 'limit 1001 is out of range', 'limit 1001');
select throws_ok($$select * from jq.jq_audit_log(p_limit => null)$$, '22004', 'limit must not be null', 'limit null');

select * from finish();
rollback;
