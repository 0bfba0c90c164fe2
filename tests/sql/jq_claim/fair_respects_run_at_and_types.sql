-- Fair claiming still never claims a job whose run_at is in the future, and
-- honours the p_types filter: a tenant whose ready jobs are all of other
-- types gets nothing and does not hold back the others.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 3, 'fair_ft', 0, 'email')) \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'fair_ft', 0, 'pdf')) \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "email", "queue": "fair_ft", "tenant": "C", "run_at": "2030-01-01T13:00:00Z"},
    {"type": "email", "queue": "fair_ft", "tenant": "C", "run_at": "2030-01-01T13:00:00Z"},
    {"type": "email", "queue": "fair_ft", "tenant": "A", "run_at": "2030-01-01T13:00:00Z"}
]$$) \gset

select results_eq($$select type, tenant from jq.jq_claim('fair_ft', 'w1', 10, '5 minutes', array['email']) order by 2$$,
                  $$values ('email'::text, 'A'::text), ('email', 'A'), ('email', 'A')$$,
                  'types [email]: only A''s 3 ready email jobs, none of B''s pdf jobs, none of the future ones');
select is(jq_test.claim_tenants('fair_ft', 1, 10), array['B', 'B', 'B'],
          'then a claim of 10 gets only B''s 3 jobs: C''s and A''s future jobs wait');
select is_empty($$select * from jq.jq_claim('fair_ft', 'w1', 10)$$, 'nothing else is ready');

select count(*) from jq.jq_complete((select array_agg(id) from jq.jobs where queue = 'fair_ft' and status = 'processing'), 'w1') \gset
select jq_test.advance('1 hour') \gset
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jq_claim('fair_ft', 'w1', 10) group by 1 order by 1$$,
                  $$values ('A'::text, 1), ('C', 2)$$, 'once their run_at has come, the future jobs are claimed');
select is((select count(*)::int from jq.jobs where queue = 'fair_ft' and status = 'pending'), 0, 'every job was claimed once');

select * from finish();
rollback;
