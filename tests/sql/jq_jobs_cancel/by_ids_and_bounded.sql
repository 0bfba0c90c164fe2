-- By ids (unknown ids and finished jobs count for nothing), and at most
-- limit per call, repeatable until 0.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_ready(12, 'cb.a', 'cb_q') as ids \gset
select jq_test.bury('cb.b', 'boom', 'cb_q') as dead \gset

select is(jq.jq_jobs_cancel(p_ids => (:'ids'::uuid[])[1:2] || array[:'dead', gen_random_uuid()]::uuid[]), 2,
          'two live ids cancelled; a dead job and an unknown id count for nothing');
select is(jq.jq_jobs_cancel('{"queue": "cb_q"}', p_limit => 6), 6, 'a filter takes at most limit');
select is(jq.jq_jobs_cancel('{"queue": "cb_q"}', p_limit => 6), 4, 'the next call the rest');
select is(jq.jq_jobs_cancel('{"queue": "cb_q"}', p_limit => 6), 0, 'then 0');

select * from finish();
rollback;
