-- jq_enqueue_many validates every element before writing: one bad element
-- rejects the whole call, the error names the element, nothing is inserted
-- and no key is taken.
begin;
select plan(10);

select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "ok", "idempotency_key": "k0"}, {"type": ""}]')$$,
                 '22023', null, 'an empty type in element 1 raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "ok", "idempotency_key": "k0"}, {"type": ""}]')$$,
                   '%jobs[1]%type%', 'the message names jobs[1] and its type');
select throws_ok($$select * from jq.jq_enqueue_many(format('[{"type": "ok"}, {"type": "%s"}]', repeat('t', 129))::jsonb)$$,
                 '22001', null, 'a 129-character type in element 1 raises 22001');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "ok"}, {"type": "ok", "max_attempts": 0}]')$$,
                 '22023', null, 'max_attempts 0 in element 1 raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "ok"}, {"type": "ok", "max_attempts": 0}]')$$,
                   '%jobs[1]%max_attempts%', 'the message names jobs[1] and max_attempts');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "ok"}, "not an object"]')$$,
                 '22023', null, 'a non-object element raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "ok"}, "not an object"]')$$,
                   '%jobs[1]%', 'the message names jobs[1]');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "ok"}, {"payload": {}}]')$$,
                 '22004', null, 'a missing type in element 1 raises 22004');

select is((select count(*)::int from jq.jobs), 0, 'no rejected call inserted a job');
select is((select count(*)::int from jq.idempotency_keys), 0, 'no rejected call took a key');

select * from finish();
rollback;
