-- jq_enqueue's 9th argument, p_concurrency_key: stored as given (null = no
-- key), 1-255 characters; empty or blank raises 22023, longer 22001. A
-- rejected call inserts nothing and takes no idempotency key.
begin;
select plan(10);

select job_id as keyed from jq.jq_enqueue('sync', '{}', 'default', 0, null, null, null, 'acme', 'acct-1') \gset
select is((select concurrency_key from jq.jobs where id = :'keyed'), 'acct-1', 'the concurrency key is stored');
select is((select tenant from jq.jobs where id = :'keyed'), 'acme', 'next to the tenant (8th argument)');
select job_id as plain from jq.jq_enqueue('sync') \gset
select is((select concurrency_key from jq.jobs where id = :'plain'), null, 'without one it is null');
select job_id as named from jq.jq_enqueue('sync', p_concurrency_key => 'acct-2') \gset
select is((select concurrency_key from jq.jobs where id = :'named'), 'acct-2', 'it can be passed by name');

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', null, '')$$, '22023', null,
                 'an empty concurrency key raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', null, '  ')$$, '22023', null,
                 'a blank concurrency key raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', null, repeat('c', 256))$$,
                 '22001', null, 'a concurrency key of 256 characters raises 22001');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'k1', null, '')$$,
                   '%concurrency_key%', 'the message names concurrency_key');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, null, null, repeat('c', 255))$$,
                'a concurrency key of exactly 255 characters is accepted');

select results_eq($$select (select count(*)::int from jq.jobs), (select count(*)::int from jq.idempotency_keys where idempotency_key = 'k1')$$,
                  $$values (4, 0)$$, 'only the accepted calls inserted jobs; the rejected ones left their key free');

select * from finish();
rollback;
