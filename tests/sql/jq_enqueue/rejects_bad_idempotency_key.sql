-- jq_enqueue: an idempotency key is null or 1-255 characters.
begin;
select plan(7);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, '')$$, '22023', null,
                 'an empty key raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, '  ')$$, '22023', null,
                 'a blank idempotency key raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, repeat('k', 256))$$,
                 '22001', null, 'a key of 256 characters raises 22001');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, '')$$,
                   '%idempotency_key%', 'the message names the idempotency_key argument');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, repeat('k', 255))$$,
                'a key of exactly 255 characters is accepted');

select is((select count(*)::int from jq.jobs), 1, 'only the accepted call inserted a job');
select is((select count(*)::int from jq.idempotency_keys), 1, 'only the accepted call took a key');

select * from finish();
rollback;
