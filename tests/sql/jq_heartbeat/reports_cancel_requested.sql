-- After jq_cancel of a running job, the holder's heartbeat reports
-- cancel_requested (and still extends the lease so the handler can stop
-- cleanly).
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'hb_cancel', null, '1 minute') as job \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'hb_cancel', null, '1 minute') as other \gset

select is(jq.jq_cancel(:'job'::uuid), 'running', 'jq_cancel of a running job says running');
select jq_test.advance('30 seconds') \gset
select set_eq(format($$select job_id, state from jq.jq_heartbeat(array[%L, %L]::uuid[], 'w1', '1 minute')$$, :'job', :'other'),
              format($$values (%L::uuid, 'cancel_requested'::text), (%L::uuid, 'ok'::text)$$, :'job', :'other'),
              'the cancelled job reports cancel_requested, the other ok');
select is((select locked_until from jq.jobs where id = :'job'), '2030-01-01 12:01:30Z'::timestamptz,
          'the lease is still extended');
select results_eq(format($$select state from jq.jq_heartbeat(array[%L]::uuid[], 'w2')$$, :'job'), array['lost'],
                  'another worker asking about it gets lost, not cancel_requested');

select * from finish();
rollback;
