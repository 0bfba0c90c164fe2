-- jq_enqueue_many: within one batch the first element with a key wins it; a
-- later element with the same (queue, key) is a duplicate of the first. A key
-- taken before the batch makes its element a duplicate of that job.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as earlier from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'old-key') \gset

create temp table result as
select r.*
  from jq.jq_enqueue_many($$[
        {"type": "first",  "idempotency_key": "batch-key"},
        {"type": "second", "idempotency_key": "batch-key"},
        {"type": "third",  "idempotency_key": "batch-key", "queue": "other"},
        {"type": "fourth", "idempotency_key": "old-key"}
       ]$$) with ordinality as r(job_id, status, duplicate, ord);

select is((select job_id from result where ord = 2), (select job_id from result where ord = 1),
          'the second element gets the first element''s id');
select results_eq($$select duplicate from result order by ord$$, array[false, true, false, true],
                  'duplicate is true for the repeated key and the key taken earlier only');
select is((select status from result where ord = 2), 'queued', 'the duplicate reports the first job''s status');
select isnt((select job_id from result where ord = 3), (select job_id from result where ord = 1),
            'the same key in another queue is another job');
select is((select job_id from result where ord = 4), :'earlier'::uuid,
          'a key taken before the batch returns the earlier job');
select is((select count(*)::int from jq.jobs where idempotency_key = 'batch-key'), 2,
          'two jobs with batch-key: one per queue');
select is((select type from jq.jobs where idempotency_key = 'batch-key' and queue = 'default'), 'first',
          'the first element is the one stored');
select is((select count(*)::int from jq.jobs where type in ('second', 'fourth')), 0,
          'the duplicates were not stored');
select is((select count(*)::int from jq.jobs), 3, 'three jobs in all');

select * from finish();
rollback;
