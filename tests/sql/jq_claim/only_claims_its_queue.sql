-- jq_claim takes jobs of the queue asked for only.
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select job_id as urgent from jq.jq_enqueue('t', '{}', 'claim_urgent', 100) \gset
select job_id as bulk from jq.jq_enqueue('t', '{}', 'claim_bulk', 0) \gset

select results_eq($$select id from jq.jq_claim('claim_bulk', 'w1', 10)$$, array[:'bulk'::uuid],
                  'a claim on claim_bulk takes only its job');
select is((select status from jq.jobs where id = :'urgent'), 'pending', 'the other queue''s job is untouched');
select results_eq($$select id from jq.jq_claim('claim_urgent', 'w2', 10)$$, array[:'urgent'::uuid],
                  'the other queue''s workers claim it');

select * from finish();
rollback;
