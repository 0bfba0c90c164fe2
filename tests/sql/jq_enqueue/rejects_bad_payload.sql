-- jq_enqueue: the payload must be a JSON object.
begin;
select plan(6);

select throws_ok($$select * from jq.jq_enqueue('t', '[1, 2]')$$, '22023', null, 'an array payload raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '"text"')$$, '22023', null, 'a string payload raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '42')$$, '22023', null, 'a number payload raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', 'null'::jsonb)$$, '22023', null,
                 'a JSON null payload raises 22023');
select throws_like($$select * from jq.jq_enqueue('t', '[1, 2]')$$, '%payload%',
                   'the message names the payload argument');

select is((select count(*)::int from jq.jobs), 0, 'no rejected call inserted a job');

select * from finish();
rollback;
