-- jq_claim: bad arguments raise their SQLSTATE and claim nothing.
begin;
select plan(12);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_ready(1, 'noop', 'claim_args') as jobs \gset

select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', 0)$$, '22023', null, 'limit 0 raises 22023');
select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', 1001)$$, '22023', null, 'limit 1001 raises 22023');
select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', -1)$$, '22023', null, 'limit -1 raises 22023');
select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', null)$$, '22023', null, 'a null limit raises 22023');
select throws_like($$select * from jq.jq_claim('claim_args', 'w1', 0)$$, '%limit%', 'the message names limit');
select throws_ok($$select * from jq.jq_claim('claim_args', null)$$, '22004', null, 'a null worker raises 22004');
select throws_ok($$select * from jq.jq_claim('claim_args', '')$$, '22023', null, 'an empty worker raises 22023');
select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', 1, '0 seconds')$$, '22023', null,
                 'a zero lease raises 22023');
select throws_ok($$select * from jq.jq_claim('claim_args', 'w1', 1, null)$$, '22004', null,
                 'a null lease raises 22004');
select throws_ok($$select * from jq.jq_claim(null, 'w1')$$, '22004', null, 'a null queue raises 22004');

select is((select attempts from jq.jobs where queue = 'claim_args'), 0::smallint, 'no rejected call counted an attempt');
select lives_ok($$select * from jq.jq_claim('claim_args', 'w1', 1000)$$, 'limit 1000 is accepted');

select * from finish();
rollback;
