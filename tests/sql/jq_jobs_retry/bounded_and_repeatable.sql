-- One call acts on at most limit jobs, oldest created first; calling again
-- takes the next ones until it returns 0, and every job is made ready once.
-- An empty filter means every job.
begin;
select plan(5);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(*) from jq.jq_enqueue_many(
    (select jsonb_agg(jsonb_build_object('type', 'bd.a', 'queue', 'bd_q', 'run_at', '2030-02-01T00:00:00Z'))
       from generate_series(1, 25) i)) \gset

select is(jq.jq_jobs_retry('{}', p_limit => 10), 10, 'the first call takes 10');
select is(jq.jq_jobs_retry('{}', p_limit => 10), 10, 'the second 10 more');
select is(jq.jq_jobs_retry('{}', p_limit => 10), 5, 'the third the last 5');
select is(jq.jq_jobs_retry('{}', p_limit => 10), 0, 'then 0: done');
select is((select count(*)::int from jq.jobs where queue = 'bd_q' and run_at = jq._now()), 25, 'all 25 are ready, each once');

select * from finish();
rollback;
