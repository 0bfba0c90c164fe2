-- Dead jobs are deleted for good, by a filter of the jq_jobs keys plus
-- error (a substring of the dead job's error) or by ids; bounded per call
-- and repeatable; live jobs are never touched. Audited.
begin;
select plan(7);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('dd.hook', 'RuntimeError: HTTP 503 from hooks.example.com for ' || i, 'dd_q')) from generate_series(1, 5) i \gset
select jq_test.bury('dd.hook', 'ValueError: bad payload', 'dd_q') as other \gset
select jq_test.bury('dd.mail', 'HTTP 503', 'dd_q') as mail \gset
select (jq.jq_enqueue('dd.hook', '{}', 'dd_q')).job_id as live \gset

select is(jq.jq_dead_delete('{"type": "dd.hook", "error": "HTTP 503"}', p_limit => 3), 3, 'a filter with an error substring, 3 at a time');
select is(jq.jq_dead_delete('{"type": "dd.hook", "error": "HTTP 503"}', p_limit => 3), 2, 'then the other 2');
select is(jq.jq_dead_delete('{"type": "dd.hook", "error": "HTTP 503"}', p_limit => 3), 0, 'then 0');
select is(jq.jq_dead_delete(p_ids => array[:'mail', :'live']::uuid[]), 1, 'by ids: the dead one; a live id counts for nothing');
select results_eq('select id from jq.dead_jobs', format('values (%L::uuid)', :'other'), 'only the other error is still dead');
select is((select status from jq.jq_status(:'live')), 'queued', 'the live job is untouched');
select results_eq($$select rows from jq.audit_log where action = 'dead_delete' order by id$$,
                  $$values (3::bigint), (2), (0), (1)$$, 'every call is audited with its count');

select * from finish();
rollback;
