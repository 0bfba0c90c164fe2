-- jq_heartbeat extends a lease the worker holds to now + lease and says ok;
-- the extended lease keeps other workers away past the original expiry.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'hb_ok', null, '1 minute') as job \gset

select jq_test.advance('50 seconds') \gset
select results_eq(format($$select job_id, state from jq.jq_heartbeat(array[%L]::uuid[], 'w1', '2 minutes')$$, :'job'),
                  format($$values (%L::uuid, 'ok'::text)$$, :'job'), 'the holder''s heartbeat is ok');
select is((select locked_until from jq.jobs where id = :'job'), '2030-01-01 12:02:50Z'::timestamptz,
          'locked_until is now + the new lease');
select results_eq($$select status, locked_by, attempts from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('processing'::text, 'w1'::text, 1::smallint)$$,
                  'status, holder and attempts are unchanged');

select jq_test.advance('2 minutes') \gset
select is_empty($$select * from jq.jq_claim('hb_ok', 'w2', 10)$$,
                'past the original expiry, the extended lease keeps other workers away');

select count(*) from jq.jq_heartbeat(array[:'job'::uuid], 'w1') \gset
select is((select locked_until from jq.jobs where id = :'job'), '2030-01-01 12:07:50Z'::timestamptz,
          'the default lease is 5 minutes');

select throws_ok(format($$select * from jq.jq_heartbeat(array[%L]::uuid[], 'w1', '0 seconds')$$, :'job'),
                 '22023', null, 'a zero lease raises 22023');

select * from finish();
rollback;
