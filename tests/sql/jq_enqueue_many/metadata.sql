-- jq_enqueue_many takes a "metadata" key per job (null or absent: none),
-- stores it with that job, and refuses the whole batch when one element's
-- metadata breaks the rule, naming the element (jobs[i].metadata).
begin;
select plan(7);

create temp table ids as
select row_number() over () as n, job_id from jq.jq_enqueue_many(
    '[{"type": "a", "queue": "meta_many", "metadata": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}},
      {"type": "b", "queue": "meta_many"},
      {"type": "c", "queue": "meta_many", "metadata": null}]');
select results_eq($$select j.metadata from ids join jq.jobs j on j.id = ids.job_id order by ids.n$$,
                  $$values ('{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}'::jsonb),
                           (null::jsonb), (null::jsonb)$$,
                  'each job has its own metadata; absent and null store null');

select throws_ok($$select jq.jq_enqueue_many('[{"type": "a", "queue": "meta_many"},
                                              {"type": "b", "queue": "meta_many", "metadata": ["x"]}]')$$,
                 '22023', 'jobs[1].metadata must be a JSON object of strings, not array', 'a non-object is named');
select throws_ok($$select jq.jq_enqueue_many('[{"type": "b", "queue": "meta_many", "metadata": {"tracestate": false}}]')$$,
                 '22023', 'jobs[0].metadata.tracestate must be a string, not boolean', 'a non-string value is named');
select throws_ok($$select jq.jq_enqueue_many(jsonb_build_array(
                      jsonb_build_object('type', 'a', 'queue', 'meta_many'),
                      jsonb_build_object('type', 'a', 'queue', 'meta_many'),
                      jsonb_build_object('type', 'b', 'queue', 'meta_many',
                                         'metadata', jsonb_build_object('baggage', repeat('x', 9000)))))$$,
                 '54000', 'jobs[2].metadata is 9015 bytes; the limit is 8192 bytes', 'oversized metadata is named');
select throws_like($$select jq.jq_enqueue_many('[{"type": "a", "meta": {}}]')$$, '%unknown key ''meta''%',
                   'a misspelt key is still an unknown key');
select is((select count(*)::int from jq.jobs where queue = 'meta_many'), 3, 'no refused batch wrote a job');

-- Metadata over the bound in the middle of a large batch is found in the one-pass check.
select throws_ok($$select jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 't', 'queue', 'meta_many',
                      'metadata', case when i = 500 then '{"n": 1}'::jsonb else '{"n": "1"}'::jsonb end))
                      from generate_series(1, 1000) i))$$,
                 '22023', 'jobs[499].metadata.n must be a string, not number', 'the bad element of 1000 is named');

select * from finish();
rollback;
