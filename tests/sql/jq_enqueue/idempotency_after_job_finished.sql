-- Invariant 7 after the job left jq.jobs: within the window a duplicate
-- still returns the original id, with its final status (succeeded, dead,
-- cancelled). The window restarts when the job finishes.
begin;
select plan(10);

select jq_test.set_now('2030-01-01 12:00Z') \gset

-- succeeded
select job_id as succeeded from jq.jq_enqueue('s.t', '{}', 'default', 0, null, null, 'key-succeeded') \gset
select is((select count(*)::int from jq.jq_claim('default', 'w1', 1, '5 minutes', array['s.t'])), 1, 'claimed');
select is((select count(*)::int from jq.jq_complete(array[:'succeeded'::uuid], 'w1')), 1, 'completed');

-- dead
select job_id as dead from jq.jq_enqueue('d.t', '{}', 'default', 0, null, 1, 'key-dead') \gset
select is((select count(*)::int from jq.jq_claim('default', 'w1', 1, '5 minutes', array['d.t'])), 1, 'claimed');
select is((select status from jq.jq_fail(:'dead'::uuid, 'w1', 'boom')), 'dead', 'failed on its only attempt');

-- cancelled
select job_id as cancelled from jq.jq_enqueue('c.t', '{}', 'default', 0, '2030-01-05 00:00Z', null, 'key-cancelled') \gset
select is(jq.jq_cancel(:'cancelled'::uuid), 'cancelled', 'cancelled while scheduled');

-- 23 hours after they finished: inside the window.
select jq_test.advance('23 hours') \gset
select results_eq($$select job_id, status, duplicate from jq.jq_enqueue('s.t', '{}', 'default', 0, null, null, 'key-succeeded')$$,
                  format($$values (%L::uuid, 'succeeded'::text, true)$$, :'succeeded'),
                  'a duplicate of a succeeded job returns its id and succeeded');
select results_eq($$select job_id, status, duplicate from jq.jq_enqueue('d.t', '{}', 'default', 0, null, null, 'key-dead')$$,
                  format($$values (%L::uuid, 'dead'::text, true)$$, :'dead'),
                  'a duplicate of a dead job returns its id and dead');
select results_eq($$select job_id, status, duplicate from jq.jq_enqueue('c.t', '{}', 'default', 0, null, null, 'key-cancelled')$$,
                  format($$values (%L::uuid, 'cancelled'::text, true)$$, :'cancelled'),
                  'a duplicate of a cancelled job returns its id and cancelled');
select is((select count(*)::int from jq.jobs where type in ('s.t', 'd.t', 'c.t')), 0,
          'the duplicates inserted nothing');

-- The window counts from when the job finished, not from when it was enqueued:
-- a job that ran 20 hours after enqueue keeps its key until 20 + 24 hours.
select job_id as slow from jq.jq_enqueue('slow.t', '{}', 'default', 0, null, null, 'key-slow') \gset
select jq_test.advance('20 hours') \gset
select count(*) from jq.jq_claim('default', 'w1', 1, '5 minutes', array['slow.t']) \gset
select count(*) from jq.jq_complete(array[:'slow'::uuid], 'w1') \gset
select jq_test.advance('10 hours') \gset
select is((select job_id from jq.jq_enqueue('slow.t', '{}', 'default', 0, null, null, 'key-slow')), :'slow'::uuid,
          '30 hours after enqueue but 10 after finishing, the key still returns the original');

select * from finish();
rollback;
