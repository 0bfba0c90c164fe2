-- jq_enqueue: a tenant is null or 1-128 characters. A rejected call takes
-- no idempotency key either (nothing is half-applied).
begin;
select plan(7);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', '')$$, '22023', null,
                 'an empty tenant raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', '   ')$$, '22023', null,
                 'a blank tenant raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', repeat('x', 129))$$,
                 '22001', null, 'a tenant of 129 characters raises 22001');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', '')$$,
                   '%tenant%', 'the message names the tenant argument');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, null, repeat('x', 128))$$,
                'a tenant of exactly 128 characters is accepted');

select is((select count(*)::int from jq.jobs), 1, 'only the accepted call inserted a job');
select is((select count(*)::int from jq.idempotency_keys where idempotency_key = 'k1'), 0,
          'the rejected calls left their key free');

select * from finish();
rollback;
