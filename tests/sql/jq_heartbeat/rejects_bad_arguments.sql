-- jq_heartbeat: bad arguments raise their SQLSTATE.
begin;
select plan(4);

select throws_ok($$select * from jq.jq_heartbeat(array[gen_random_uuid()], null)$$, '22004', null,
                 'a null worker raises 22004');
select throws_ok($$select * from jq.jq_heartbeat(null, 'w1')$$, '22004', null, 'null job_ids raises 22004');
select throws_ok($$select * from jq.jq_heartbeat(array[gen_random_uuid()], 'w1', '8 days')$$, '22023', null,
                 'a lease over 7 days raises 22023');
select is_empty($$select * from jq.jq_heartbeat(array[]::uuid[], 'w1')$$, 'an empty array returns no row');

select * from finish();
rollback;
