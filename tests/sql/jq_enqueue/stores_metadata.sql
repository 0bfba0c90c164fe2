-- jq_enqueue stores p_metadata with the job (null when not given): an object
-- of strings, such as the W3C trace context, at most 8192 bytes as JSON text.
-- Anything else is refused with a message naming it, and nothing is written.
begin;
select plan(11);

select job_id as plain from jq.jq_enqueue('meta', '{}', 'meta_q') \gset
select is((select metadata from jq.jobs where id = :'plain'), null, 'no metadata: null');

select job_id as traced from jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata =>
    '{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "congo=t61rcWkgMzE"}')
\gset
select is((select metadata from jq.jobs where id = :'traced'),
          '{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "congo=t61rcWkgMzE"}'::jsonb,
          'the trace context is stored as given');

select throws_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => '["traceparent"]')$$,
                 '22023', 'metadata must be a JSON object of strings, not array', 'an array is refused with 22023');
select throws_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => '"00-abc"')$$,
                 '22023', 'metadata must be a JSON object of strings, not string', 'a string is refused with 22023');
select throws_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => '{"traceparent": "x", "hops": 3}')$$,
                 '22023', 'metadata.hops must be a string, not number', 'a value that is not a string is named');
select throws_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => '{"span": {"id": "1"}}')$$,
                 '22023', 'metadata.span must be a string, not object', 'nested objects are refused');
select throws_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q',
                                        p_metadata => jsonb_build_object('baggage', repeat('x', 9000)))$$,
                 '54000', 'metadata is 9015 bytes; the limit is 8192 bytes', 'over 8192 bytes is refused with 54000');
select is((select count(*)::int from jq.jobs where queue = 'meta_q'), 2, 'no refused call wrote a job');

-- {"k": "xxx…"} is 9 bytes of JSON text around the value.
select lives_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => jsonb_build_object('k', repeat('x', 8183)))$$,
                'exactly 8192 bytes are accepted');
select lives_ok($$select jq.jq_enqueue('meta', '{}', 'meta_q', p_metadata => '{}')$$, 'an empty object is accepted');

-- The table holds the rule too, for writers that bypass jq_enqueue.
select is(jq_test.violation($$insert into jq.jobs (id, queue, type, run_at, max_attempts, created_at, metadata)
                               values (gen_random_uuid(), 'meta_q', 'meta', now(), 1, now(), '[1]')$$),
          '23514 jobs_metadata_object', 'jq.jobs refuses metadata that is not an object');

select * from finish();
rollback;
