-- Invariant 5: a future run_at is never claimed early, whatever its priority,
-- and it does not hold back ready jobs behind it.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as later from jq.jq_enqueue('later', '{}', 'claim_future', 100, '2030-01-01 13:00Z') \gset
select job_id as ready from jq.jq_enqueue('ready', '{}', 'claim_future', -100) \gset

select results_eq($$select id from jq.jq_claim('claim_future', 'w1', 10, '1 day')$$, array[:'ready'::uuid],
                  'only the ready job is claimed, although the scheduled one has a higher priority');

select jq_test.advance('59 minutes 59 seconds') \gset
select is_empty($$select * from jq.jq_claim('claim_future', 'w1', 10)$$, 'one second before run_at: not claimed');
select is((select attempts from jq.jobs where id = :'later'), 0::smallint, 'the scheduled job was not touched');

select jq_test.advance('1 second') \gset
select results_eq($$select id from jq.jq_claim('claim_future', 'w1', 10)$$, array[:'later'::uuid],
                  'at run_at it is claimed');
select is((select attempts from jq.jobs where id = :'later'), 1::smallint, 'and its attempt counted');

select * from finish();
rollback;
