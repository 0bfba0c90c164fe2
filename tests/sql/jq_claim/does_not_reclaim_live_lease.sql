-- Invariant 2: a job whose lease is live is not claimed again, by anyone,
-- up to and including the instant the lease ends.
-- (Rows locked by another open transaction are skipped, never waited for:
-- that needs two sessions and is tested from Python.)
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'claim_live', null, '1 minute') as job \gset

select is_empty($$select * from jq.jq_claim('claim_live', 'w2', 10)$$, 'another worker cannot claim it');
select is_empty($$select * from jq.jq_claim('claim_live', 'w1', 10)$$, 'nor can its own worker claim it again');

select jq_test.advance('1 minute') \gset
select is_empty($$select * from jq.jq_claim('claim_live', 'w2', 10)$$,
                'at the instant the lease ends it is still not claimable');
select results_eq($$select locked_by, attempts from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('w1'::text, 1::smallint)$$, 'the lease holder and attempts are unchanged');

select jq_test.advance('1 second') \gset
select results_eq($$select id from jq.jq_claim('claim_live', 'w2', 10)$$, array[:'job'::uuid],
                  'one second after the lease ended another worker claims it');

select * from finish();
rollback;
