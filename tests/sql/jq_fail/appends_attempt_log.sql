-- jq_fail appends the attempt to jq.jobs.attempt_log in its retry UPDATE:
-- attempt number, time, worker, error.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'default', 5) as id \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'boom') \gset

select is((select attempt_log from jq.jobs where id = :'id'),
          '[{"at": "2030-01-15T08:00:00+00:00", "error": "boom", "worker": "w1", "attempt": 1}]'::jsonb,
          'one entry after one failure');
select is((select attempt_log from jq.jobs where id = :'id'::uuid and last_error = 'boom') is not null, true,
          'last_error is still the latest error');

select * from finish();
rollback;
