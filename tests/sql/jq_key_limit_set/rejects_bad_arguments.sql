-- jq_key_limit_set: bad arguments raise their SQLSTATE (22004 missing,
-- 22001 too long, 22023 anything else) and change nothing.
begin;
select plan(11);

select count(*) from jq.jq_key_limit_set('sync', 3) \gset

select throws_ok($$select * from jq.jq_key_limit_set(null, 2)$$, '22004', null, 'a null type raises 22004');
select throws_ok($$select * from jq.jq_key_limit_set('', 2)$$, '22023', null, 'an empty type raises 22023');
select throws_ok($$select * from jq.jq_key_limit_set('   ', 2)$$, '22023', null, 'a blank type raises 22023');
select throws_ok($$select * from jq.jq_key_limit_set(repeat('t', 129), 2)$$, '22001', null,
                 'a type of 129 characters raises 22001');
select throws_ok($$select * from jq.jq_key_limit_set('sync', null)$$, '22004', null, 'a null max_running raises 22004');
select throws_ok($$select * from jq.jq_key_limit_set('sync', 0)$$, '22023', null, 'max_running 0 raises 22023');
select throws_ok($$select * from jq.jq_key_limit_set('sync', -5)$$, '22023', null, 'max_running -5 raises 22023');
select throws_ok($$select * from jq.jq_key_limit_set('sync', 1000001)$$, '22023', null,
                 'max_running 1000001 raises 22023');
select throws_like($$select * from jq.jq_key_limit_set('sync', 0)$$, '%max_running%', 'the message names max_running');
select throws_like($$select * from jq.jq_key_limit_set('', 2)$$, '%type%', 'the message names the type');

select results_eq('select type, max_running from jq.key_limits', $$values ('sync'::text, 3)$$,
                  'no rejected call changed the row or added one');

select * from finish();
rollback;
