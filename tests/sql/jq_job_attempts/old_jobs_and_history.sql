-- A job from before 0.5.0 has no attempt log: its last_error is shown as its
-- last attempt. A job that succeeded after failing carries its attempts into
-- history. An unknown job or one that never failed has none.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select e.job_id as id from jq.jq_enqueue('flaky', '{}', 'q', 0, null, 5) e \gset
select set_config('t.id', :'id', true) \gset
select count(*) from jq.jq_claim('q', 'w1', 1) \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'boom', '0 seconds') \gset
select count(*) from jq.jq_claim('q', 'w1', 1) \gset
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset
select results_eq($$select attempt, worker, error from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (1, 'w1'::text, 'boom'::text)$$, 'a succeeded job shows its failed attempt from history');

select jq_test.bury('legacy', 'Timeout after 30s') as dead_id \gset
select set_config('t.dead_id', :'dead_id', true) \gset
select set_config('t.dead_id', :'dead_id', true) \gset
update jq.dead_jobs set attempt_log = null where id = :'dead_id';
select results_eq($$select attempt, failed_at, worker, error from jq.jq_job_attempts(current_setting('t.dead_id')::uuid)$$,
                  $$values (1, '2030-01-15 08:00Z'::timestamptz, null::text, 'Timeout after 30s'::text)$$,
                  'a dead job without a log shows last_error as its last attempt');

select is_empty($$select 1 from jq.jq_job_attempts(gen_random_uuid())$$, 'an unknown job: no rows');
select e.job_id as fresh from jq.jq_enqueue('flaky', '{}', 'q') e \gset
select set_config('t.fresh', :'fresh', true) \gset
select is_empty($$select 1 from jq.jq_job_attempts(current_setting('t.fresh')::uuid)$$, 'a job that never failed: no rows');

select * from finish();
rollback;
