-- Only the last 10 attempts are kept, and one attempt's error is cut to its
-- head and tail (2,000 characters).
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select e.job_id as id from jq.jq_enqueue('flaky', '{}', 'q', 0, null, 20) e \gset
select set_config('t.id', :'id', true) \gset
do $$
begin
    for i in 1..12 loop
        perform jq.jq_claim('q', 'w1', 1);
        perform jq.jq_fail((select id from jq.jobs), 'w1', 'fail #' || i || repeat('x', 3000) || 'END', '0 seconds');
    end loop;
end
$$;

select results_eq($$select min(attempt), max(attempt), count(*) from jq.jq_job_attempts(current_setting('t.id')::uuid)$$,
                  $$values (3, 12, 10::bigint)$$, 'attempts 3 to 12 are kept');
select cmp_ok((select max(char_length(error)) from jq.jq_job_attempts(:'id')), '<=', 2000,
              'each error is at most 2,000 characters');
select ok((select bool_and(error like 'fail #%' and error like '%END') from jq.jq_job_attempts(:'id')),
          'each keeps its first line and its end');

select * from finish();
rollback;
