-- A blank error filter (it would match every group) is refused with 22023.
begin;
select plan(2);

select throws_ok($$select * from jq.jq_dead_groups(p_error => '')$$, '22023', 'error filter is blank', 'an empty error');
select throws_ok($$select * from jq.jq_dead_groups(p_error => '   ')$$, '22023', 'error filter is blank', 'a blank error');

select * from finish();
rollback;
