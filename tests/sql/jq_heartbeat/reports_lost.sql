-- jq_heartbeat says lost, and changes nothing, for any job the worker does
-- not hold: another worker's, a pending one, a finished one, an unknown id,
-- or one that was reaped and re-claimed elsewhere. One row per job asked about.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'hb_lost', null, '1 minute') as mine \gset
select jq_test.enqueue_and_claim('w2', 'noop', 'hb_lost', null, '1 minute') as theirs \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'hb_lost') as finished \gset
select count(*) from jq.jq_complete(array[:'finished'::uuid], 'w1') \gset
select job_id as pending from jq.jq_enqueue('noop', '{}', 'hb_lost') \gset
select gen_random_uuid() as unknown \gset

create temp table beat as
select * from jq.jq_heartbeat(array[:'mine', :'theirs', :'finished', :'pending', :'unknown', :'mine']::uuid[],
                              'w1', '1 minute');

select is((select count(*)::int from beat), 5, 'one row per distinct job asked about');
select is((select state from beat where job_id = :'mine'), 'ok', 'its own job is ok');
select is((select state from beat where job_id = :'theirs'), 'lost', 'another worker''s job is lost');
select is((select state from beat where job_id = :'finished'), 'lost', 'a completed job is lost');
select is((select state from beat where job_id = :'pending'), 'lost', 'a pending job is lost');
select is((select state from beat where job_id = :'unknown'), 'lost', 'an unknown id is lost');
select is((select locked_until from jq.jobs where id = :'theirs'), '2030-01-01 12:01Z'::timestamptz,
          'another worker''s lease is not extended');

-- The lease expired and another worker took the job.
select jq_test.advance('2 minutes') \gset
select count(*) from jq.jq_claim('hb_lost', 'w3', 10) \gset
select results_eq(format($$select state from jq.jq_heartbeat(array[%L]::uuid[], 'w1')$$, :'mine'), array['lost'],
                  'after its lease was reaped and re-claimed, the old worker''s heartbeat is lost');
select is((select locked_by from jq.jobs where id = :'mine'), 'w3', 'the job stays with w3');

select * from finish();
rollback;
