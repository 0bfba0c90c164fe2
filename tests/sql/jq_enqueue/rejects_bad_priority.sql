-- jq_enqueue: priority is a smallint; anything outside raises 22023.
begin;
select plan(7);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 32768)$$, '22023', null,
                 'priority 32768 raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', -32769)$$, '22023', null,
                 'priority -32769 raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', null)$$, '22004', null,
                 'a null priority raises 22004');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 40000)$$, '%priority%',
                   'the message names the priority argument');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 32767)$$, 'priority 32767 is accepted');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', -32768)$$, 'priority -32768 is accepted');

select is((select count(*)::int from jq.jobs), 2, 'only the two accepted calls inserted a job');

select * from finish();
rollback;
