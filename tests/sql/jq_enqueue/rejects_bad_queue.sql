-- jq_enqueue: a queue name is 1-64 characters of letters, digits and _ . : -
begin;
select plan(9);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', null)$$, '22004', null, 'a null queue raises 22004');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', '')$$, '22023', null, 'an empty queue raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'has space')$$, '22023', null,
                 'a queue with a space raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'émails')$$, '22023', null,
                 'a queue with a non-ASCII letter raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', repeat('q', 65))$$, '22001', null,
                 'a queue of 65 characters raises 22001');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'has space')$$, '%queue%',
                   'the message names the queue argument');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', repeat('q', 64))$$,
                'a queue of exactly 64 characters is accepted');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'Mail_v2.eu-west:bulk')$$,
                'letters, digits, _ . : - are accepted');

select is((select count(*)::int from jq.jobs), 2, 'only the two accepted calls inserted a job');

select * from finish();
rollback;
