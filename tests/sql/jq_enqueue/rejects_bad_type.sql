-- jq_enqueue: the type must be present, non-blank and at most 128 characters.
begin;
select plan(7);

select throws_ok($$select * from jq.jq_enqueue(null)$$, '22004', null, 'a null type raises 22004');
select throws_ok($$select * from jq.jq_enqueue('')$$, '22023', null, 'an empty type raises 22023');
select throws_ok($$select * from jq.jq_enqueue('   ')$$, '22023', null, 'a blank type raises 22023');
select throws_ok($$select * from jq.jq_enqueue(repeat('t', 129))$$, '22001', null,
                 'a type of 129 characters raises 22001');
select throws_like($$select * from jq.jq_enqueue(repeat('t', 129))$$, '%type%',
                   'the message names the type argument');
select lives_ok($$select * from jq.jq_enqueue(repeat('t', 128))$$, 'a type of exactly 128 characters is accepted');

select is((select count(*)::int from jq.jobs where type <> repeat('t', 128)), 0,
          'no rejected call inserted a job');

select * from finish();
rollback;
