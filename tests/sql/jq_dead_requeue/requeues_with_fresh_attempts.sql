-- Dead jobs go back to jq.jobs ready now with attempts from zero, keeping
-- id, payload, tenant, keys and their last error (as jq_retry_dead moves
-- them), by a filter (the jq_jobs keys plus error, a substring) or by ids;
-- bounded and repeatable. Audited.
begin;
select plan(7);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select count(jq_test.bury('rq.hook', 'RuntimeError: HTTP 503 from hooks.example.com for ' || i, 'rq_q', jsonb_build_object('i', i)))
  from generate_series(1, 4) i \gset
select jq_test.bury('rq.hook', 'ValueError: bad payload', 'rq_q') as other \gset
select jq_test.advance('1 hour') as t1 \gset

select is(jq.jq_dead_requeue('{"type": "rq.hook", "error": "HTTP 503"}', p_limit => 3), 3,
          'the requirements'' example (error "HTTP 503") matches by substring, 3 at a time');
select is(jq.jq_dead_requeue('{"type": "rq.hook", "error": "HTTP 503"}', p_limit => 3), 1, 'then the last one');
select is(jq.jq_dead_requeue('{"type": "rq.hook", "error": "HTTP 503"}'), 0, 'then 0');
select is((select count(*)::int from jq.jobs
            where type = 'rq.hook' and attempts = 0 and run_at = :'t1'::timestamptz and status = 'pending'
              and last_error like 'RuntimeError: HTTP 503%' and payload ? 'i'), 4,
          'back in jq.jobs: ready now, attempts 0, payload and last error kept');
select is((select count(*)::int from jq.jq_claim('rq_q', 'w2', 10)), 4, 'and claimable');
select is(jq.jq_dead_requeue(p_ids => array[:'other']::uuid[]), 1, 'by ids');
select results_eq($$select rows from jq.audit_log where action = 'dead_requeue' order by id$$,
                  $$values (3::bigint), (1), (0), (1)$$, 'every call is audited with its count');

select * from finish();
rollback;
