-- jq_enqueue_many refuses a batch holding a payload over a bound, naming the
-- element, and writes nothing of the batch.
begin;
select plan(4);

select throws_ok($$select jq.jq_enqueue_many(jsonb_build_array(
                      jsonb_build_object('type', 'ok', 'queue', 'bounds_many'),
                      jsonb_build_object('type', 'big', 'queue', 'bounds_many',
                                         'payload', jsonb_build_object('blob', repeat('x', 2 * 1024 * 1024)))))$$,
                 '54000', null, 'an oversized payload in a batch: 54000');
select throws_ok($$select jq.jq_enqueue_many(jsonb_build_array(
                      jsonb_build_object('type', 'ok', 'queue', 'bounds_many'),
                      jsonb_build_object('type', 'deep', 'queue', 'bounds_many',
                                         'payload', jsonb_build_object('a', (repeat('[', 100) || repeat(']', 100))::jsonb))))$$,
                 '54001', 'jobs[1].payload nests deeper than 64 levels', 'a too-deep payload is named jobs[1].payload');
select is((select count(*) from jq.jobs where queue = 'bounds_many'), 0::bigint, 'nothing of either batch was written');
select lives_ok($$select jq.jq_enqueue_many(jsonb_build_array(jsonb_build_object('type', 'ok', 'queue', 'bounds_many',
                     'payload', jsonb_build_object('a', 1))))$$, 'a batch within the bounds is enqueued');

select * from finish();
rollback;
