-- Tenants whose ready jobs are all held back by a concurrency-key cap get
-- nothing, and must not keep a claim from serving the other tenants: "a
-- capped tenant ... gets nothing more until a job of it finishes; other
-- tenants are unaffected".
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from unnest(array['A', 'B', 'C', 'D']) t, jq_test.enqueue_tenant(t, 3, 'key_block', 0, 'kct.sync', 'key-' || t) \gset
select is(jq_test.claim_tenants('key_block', 1, 4), array['A', 'B', 'C', 'D'], 'one keyed job of each of A, B, C, D runs');
select jq_test.advance('1 minute') \gset
select cardinality(jq_test.enqueue_tenant('Z', 10, 'key_block')) \gset

select is(jq_test.claim_tenants('key_block', 3, 1), array['Z', 'Z', 'Z'],
          'three claims of limit 1 get three of Z''s jobs');
select is((select count(*)::int from jq.jobs where queue = 'key_block' and concurrency_key is not null and status = 'pending'), 8,
          'the key-capped jobs stay pending');

select * from finish();
rollback;
