-- f(f(x)) = f(x): a fingerprint taken from jq_dead_groups, passed back to
-- jq_retry_dead (which fingerprints its argument), must select the same group.
begin;
select plan(2);

create temp table samples (error text) on commit drop;
insert into samples values
    ('Timeout after 30s for inv_1'),
    ('Job 3f2b8c1e-9a4d-4e2b-8f3a-1c2d3e4f5a6b not found'),
    ('Order 123456789 failed at 2026-01-15T08:00:00Z'),
    ('connect to 10.0.0.12:5432 refused'),
    ($$user 'alice' not found, key "k-1"$$),
    ($$"it's" 'a "mix' of "quotes$$),
    ('HTTP 503'),
    ('v1.2.3.4 then a1.2.3.4.5 then 1.2.3'),
    (E'first line\nsecond line 12345'),
    ('segfault at 0xdeadbeef'),
    (repeat('a', 199) || ' tail'),
    (repeat('a', 198) || ' ''quoted value'''),
    (repeat('word ', 60)),
    (repeat('x', 195) || ' inv_123456');
insert into samples select 'err ' || md5(i::text) || ' at ' || (i * 7919) || ' ' || repeat(' z', i % 120)
  from generate_series(1, 200) i;

select is_empty(
    $$select error, jq.error_fingerprint(error) as once, jq.error_fingerprint(jq.error_fingerprint(error)) as twice
        from samples
       where jq.error_fingerprint(jq.error_fingerprint(error)) is distinct from jq.error_fingerprint(error)$$,
    'fingerprinting a fingerprint changes nothing, for every sample');
select is((select provolatile from pg_proc where oid = 'jq.error_fingerprint(text)'::regprocedure), 'i'::"char",
          'error_fingerprint is immutable');

select * from finish();
rollback;
