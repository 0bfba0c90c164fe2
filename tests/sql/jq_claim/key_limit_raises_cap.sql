-- jq_key_limit_set(type, n) lets n jobs of that type sharing one key run at
-- once (other types keep the default of 1); jq_key_limit_delete brings the
-- type back to 1, and jobs already running above the new cap block the key
-- until enough of them finish.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_key_limit_set('klr.sync', 3) \gset
select cardinality(jq_test.enqueue_tenant(null, 6, 'klim_q', 0, 'klr.sync', 'acct-1')) \gset
select cardinality(jq_test.enqueue_tenant(null, 6, 'klim_q', 0, 'klr.sync', 'acct-2')) \gset
select cardinality(jq_test.enqueue_tenant(null, 3, 'klim_q', 0, 'klr.export', 'acct-1')) \gset

select results_eq($$select j.type, j.concurrency_key, count(*)::int
                      from jq.jq_claim('klim_q', 'w1', 20) c join jq.jobs j using (id) group by 1, 2 order by 1, 2$$,
                  $$values ('klr.export'::text, 'acct-1'::text, 1), ('klr.sync', 'acct-1', 3), ('klr.sync', 'acct-2', 3)$$,
                  'sync runs 3 per key, export still 1');
select is_empty($$select * from jq.jq_claim('klim_q', 'w1', 20)$$, 'nothing more while they run');

-- Raised while jobs run: the extra room is used at once.
select count(*) from jq.jq_key_limit_set('klr.sync', 4) \gset
select results_eq($$select j.concurrency_key, count(*)::int
                      from jq.jq_claim('klim_q', 'w1', 20) c join jq.jobs j using (id) group by 1 order by 1$$,
                  $$values ('acct-1'::text, 1), ('acct-2', 1)$$, 'raised to 4: one more per key');

-- Back to the default of 1 with 4 running per key.
select jq.jq_key_limit_delete('klr.sync') \gset
create temp table running as
    select id, concurrency_key from jq.jobs where queue = 'klim_q' and type = 'klr.sync' and status = 'processing';
select count(*) from jq.jq_complete((select array_agg(id) from (select id from running where concurrency_key = 'acct-1' limit 3) s), 'w1') \gset
select is_empty($$select * from jq.jq_claim('klim_q', 'w1', 20) where type = 'klr.sync'$$,
                'limit dropped (1): 3 of 4 acct-1 jobs finished, one still runs, so none starts');
select count(*) from jq.jq_complete((select array_agg(id) from running where concurrency_key = 'acct-1'), 'w1') \gset
select results_eq($$select j.concurrency_key, count(*)::int
                      from jq.jq_claim('klim_q', 'w1', 20) c join jq.jobs j using (id) where j.type = 'klr.sync' group by 1$$,
                  $$values ('acct-1'::text, 1)$$, 'all acct-1 jobs finished: exactly one more starts');

-- The limit only matters for jobs with a key.
select cardinality(jq_test.enqueue_tenant(null, 5, 'klim_q', 0, 'klr.sync', null)) \gset
select is((select count(*)::int from jq.jq_claim('klim_q', 'w1', 20)), 5,
          'sync jobs without a key are not capped: a claim gets all 5 (and no keyed job)');
select is((select count(*)::int from jq.jobs where queue = 'klim_q' and type = 'klr.sync' and concurrency_key is null
              and status = 'processing'), 5, 'all 5 run');

select * from finish();
rollback;
