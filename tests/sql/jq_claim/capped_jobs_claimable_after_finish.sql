-- A job held back by a cap becomes claimable as soon as the running job that
-- holds the cap stops running: completed (jq_complete), failed with a retry
-- or to the dead letters (jq_fail), released (jq_release), or reaped after
-- its lease expired. Holds for tenant caps and concurrency-key caps alike.
begin;
select plan(10);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('after_q', 'A', null, 1) \gset
select cardinality(jq_test.enqueue_tenant('A', 6, 'after_q', 0, 'work')) \gset
select cardinality(jq_test.enqueue_tenant(null, 6, 'after_q', 0, 'cjc.sync', 'acct-1')) \gset

create temp table held (kind text, id uuid);
create function pg_temp.claim_one_each() returns integer language sql as $$
    with c as (select * from jq.jq_claim('after_q', 'w1', 10)),
         ins as (insert into held select case when c.tenant = 'A' then 'tenant' else 'key' end, c.id from c returning 1)
    select count(*)::int from ins
$$;
create function pg_temp.current(p_kind text) returns uuid language sql as $$
    select h.id from held h join jq.jobs j on j.id = h.id
     where h.kind = p_kind and j.status = 'processing' and j.locked_by = 'w1'
$$;

select is(pg_temp.claim_one_each(), 2, 'one job under each cap is claimed');
select is(pg_temp.claim_one_each(), 0, 'and nothing else while they run');

-- Completed.
select count(*) from jq.jq_complete(array[pg_temp.current('tenant'), pg_temp.current('key')], 'w1') \gset
select is(pg_temp.claim_one_each(), 2, 'after jq_complete of both, the next two are claimed');

-- Failed, to be retried later.
select count(*) from jq.jq_fail(pg_temp.current('tenant'), 'w1', 'boom', '1 hour') \gset
select count(*) from jq.jq_fail(pg_temp.current('key'), 'w1', 'boom', '1 hour') \gset
select is(pg_temp.claim_one_each(), 2, 'after jq_fail with a retry, the next two are claimed');

-- Failed for good (dead letters).
select count(*) from jq.jq_fail(pg_temp.current('tenant'), 'w1', 'fatal', null, true) \gset
select count(*) from jq.jq_fail(pg_temp.current('key'), 'w1', 'fatal', null, true) \gset
select is((select count(*)::int from jq.dead_jobs where queue = 'after_q'), 2, 'two jobs are dead');
select is(pg_temp.claim_one_each(), 2, 'after jq_fail to the dead letters, the next two are claimed');

-- Released.
select count(*) from jq.jq_release(array[pg_temp.current('tenant'), pg_temp.current('key')], 'w1') \gset
select is(pg_temp.claim_one_each(), 2, 'after jq_release, two are claimed again');
select is(pg_temp.claim_one_each(), 0, 'and then nothing');

-- Lease expired: the claim reaps it first, then the cap has room.
select jq_test.advance('10 minutes') \gset
select is(pg_temp.claim_one_each(), 2, 'after their leases expired, the next claim takes two again');
select is((select count(*)::int from jq.jobs where queue = 'after_q' and status = 'processing'), 2,
          'and exactly two jobs run');

select * from finish();
rollback;
