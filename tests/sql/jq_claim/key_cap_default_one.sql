-- Concurrency keys: jobs of one type that share a concurrency_key run one
-- at a time by default (the type has no jq.key_limits row). Other keys of
-- the type, the same key under another type, and jobs without a key are
-- independent of it. The cap counts running jobs of (type, key) in every
-- queue. Key-capped jobs stay pending: a claim may return fewer rows than
-- its limit.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'key_q', 0, 'kdo.sync', 'acct-1')) \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'key_q', 0, 'kdo.sync', 'acct-2')) \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'key_q', 0, 'kdo.export', 'acct-1')) \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'key_q', 0, 'kdo.sync', null)) \gset
select cardinality(jq_test.enqueue_tenant(null, 2, 'key_q2', 0, 'kdo.sync', 'acct-1')) \gset

create temp table claimed as select * from jq.jq_claim('key_q', 'w1', 20);
select results_eq($$select j.type, coalesce(j.concurrency_key, '-'), count(*)::int
                      from claimed c join jq.jobs j on j.id = c.id group by 1, 2 order by 1, 2$$,
                  $$values ('kdo.export'::text, 'acct-1'::text, 1), ('kdo.sync', '-', 3), ('kdo.sync', 'acct-1', 1), ('kdo.sync', 'acct-2', 1)$$,
                  'a claim of 20 gets one job per (type, key) and every job without a key');
select is((select count(*)::int from claimed), 6, 'so it returns 6 rows, fewer than its limit');
select is((select j.payload ->> 'i' from jq.jobs j join claimed c using (id) where j.type = 'kdo.sync' and j.concurrency_key = 'acct-1'),
          '1', 'the oldest job of a key is the one that runs');
select is_empty($$select * from jq.jq_claim('key_q', 'w1', 20)$$, 'nothing more while one job of each key runs');
select results_eq($$select type, concurrency_key, count(*)::int from jq.jobs where queue = 'key_q' and status = 'pending'
                     group by 1, 2 order by 1, 2$$,
                  $$values ('kdo.export'::text, 'acct-1'::text, 2), ('kdo.sync', 'acct-1', 2), ('kdo.sync', 'acct-2', 2)$$,
                  'the key-capped jobs stay pending');
select is_empty($$select * from jq.jq_claim('key_q2', 'w1', 20)$$,
                'another queue''s sync/acct-1 jobs wait too: the key is per type, not per queue');

-- One claim never runs two jobs of one key, even from two tenants.
select cardinality(jq_test.enqueue_tenant('T1', 2, 'key_q3', 0, 'kdo.mail', 'box-9')) \gset
select cardinality(jq_test.enqueue_tenant('T2', 2, 'key_q3', 0, 'kdo.mail', 'box-9')) \gset
select is((select count(*)::int from jq.jq_claim('key_q3', 'w1', 10)), 1, 'two tenants sharing a key: one job runs');
select is_empty($$select * from jq.jq_claim('key_q3', 'w2', 10)$$, 'and no second one, for another worker either');

select * from finish();
rollback;
