-- jq_enqueue: max_attempts is between 1 and 1000.
begin;
select plan(7);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, 0)$$, '22023', null,
                 'max_attempts 0 raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, -1)$$, '22023', null,
                 'max_attempts -1 raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, 1001)$$, '22023', null,
                 'max_attempts 1001 raises 22023');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, 0)$$, '%max_attempts%',
                   'the message names the max_attempts argument');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, 1)$$, 'max_attempts 1 is accepted');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, 1000)$$,
                'max_attempts 1000 is accepted');

select is((select count(*)::int from jq.jobs), 2, 'only the two accepted calls inserted a job');

select * from finish();
rollback;
