-- Once the window (24 h by default) is over and the job has left jq.jobs, the
-- key is free again: the next enqueue makes a new job.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as first from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'nightly') \gset
select count(*) from jq.jq_claim('default', 'w1', 1, '5 minutes', array['t']) \gset
select is((select count(*)::int from jq.jq_complete(array[:'first'::uuid], 'w1')), 1, 'the first job succeeded');

select jq_test.advance('23 hours 59 minutes 59 seconds') \gset
select is((select job_id from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'nightly')), :'first'::uuid,
          'one second before the window ends the key is still held');

select jq_test.advance('2 seconds') \gset
create temp table second as select * from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'nightly');
select isnt((select job_id from second), :'first'::uuid, 'after the window the key makes a new job');
select is((select duplicate from second), false, 'which is not a duplicate');
select is((select status from second), 'queued', 'and is queued');
select is((select job_id from jq.idempotency_keys where queue = 'default' and idempotency_key = 'nightly'),
          (select job_id from second), 'the key now belongs to the new job');

select * from finish();
rollback;
