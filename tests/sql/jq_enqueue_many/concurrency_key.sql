-- jq_enqueue_many takes a "concurrency_key" per element: stored as given
-- (absent or null = none). A bad one (not a string, empty or blank: 22023;
-- longer than 255: 22001) is reported as jobs[i].concurrency_key and the
-- whole batch inserts nothing.
begin;
select plan(9);

create temp table res as select * from jq.jq_enqueue_many($$[
    {"type": "sync", "concurrency_key": "acct-1"},
    {"type": "sync", "concurrency_key": null},
    {"type": "sync"}
]$$) with ordinality as r(job_id, status, duplicate, ord);
select results_eq($$select j.concurrency_key from res r join jq.jobs j on j.id = r.job_id order by r.ord$$,
                  $$values ('acct-1'::text), (null), (null)$$, 'the key is stored; null or absent is no key');

select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t"}, {"type": "t", "concurrency_key": ""}]')$$,
                 '22023', null, 'an empty key raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "t"}, {"type": "t", "concurrency_key": ""}]')$$,
                   '%jobs[1].concurrency_key%', 'the message names jobs[1].concurrency_key');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "concurrency_key": "   "}]')$$, '22023', null,
                 'a blank key raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "concurrency_key": 42}]')$$, '22023', null,
                 'a numeric key raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "t", "concurrency_key": 42}]')$$,
                   '%jobs[0].concurrency_key%', 'the message names jobs[0].concurrency_key');
select throws_ok(format('select * from jq.jq_enqueue_many(%L)',
                        jsonb_build_array(jsonb_build_object('type', 't', 'concurrency_key', repeat('c', 256))))::text,
                 '22001', null, 'a key of 256 characters raises 22001');
select lives_ok(format('select * from jq.jq_enqueue_many(%L)',
                       jsonb_build_array(jsonb_build_object('type', 't', 'concurrency_key', repeat('c', 255))))::text,
                'a key of 255 characters is accepted');

select is((select count(*)::int from jq.jobs), 4, 'the rejected batches inserted nothing');

select * from finish();
rollback;
