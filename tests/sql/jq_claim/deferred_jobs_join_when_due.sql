-- Jobs for later (enqueued with a future run_at, or failed with a retry
-- delay) wait outside the claim (deferred) and take their place by the
-- claim rule once due: a due priority-5 job goes before older priority-0
-- ones, and a due job of a new tenant takes its turn with the others.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select cardinality(jq_test.enqueue_tenant('A', 10, 'defer_q')) \gset
select job_id as later from jq.jq_enqueue('noop', '{}', 'defer_q', 5, '2030-01-01 12:30Z', null, null, 'B') \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "noop", "queue": "defer_q", "tenant": "C", "run_at": "2030-01-01T12:30:00Z"},
    {"type": "noop", "queue": "defer_q", "tenant": "C", "run_at": "2030-01-01T12:30:00Z"}
]$$) \gset

select is((select count(*)::int from jq.jobs where queue = 'defer_q' and deferred), 3,
          'the 3 jobs for 12:30 are deferred, the ready ones are not');
select is(jq_test.claim_tenants('defer_q', 2), array['A', 'A'], 'before 12:30 only A''s jobs are claimed');

select jq_test.advance('30 minutes') \gset
select results_eq($$select id from jq.jq_claim('defer_q', 'w1', 1)$$, array[:'later'::uuid],
                  'at 12:30 the priority-5 job of B comes first');
select is(jq_test.claim_tenants('defer_q', 4), array['A', 'C', 'A', 'C'],
          'then C''s due jobs take turns with A''s (A''s are older)');
select is((select count(*)::int from jq.jobs where queue = 'defer_q' and deferred), 0, 'nothing is deferred any more');

-- A retry for later is deferred too, and claimed when due.
select id as retried from jq.jobs where queue = 'defer_q' and tenant = 'C' and status = 'processing' limit 1 \gset
select count(*) from jq.jq_fail(:'retried', 'w1', 'boom', '10 minutes') \gset
select is((select deferred from jq.jobs where id = :'retried'), true, 'a job failed with a 10-minute retry is deferred');
select count(*) from jq.jq_complete((select array_agg(id) from jq.jobs where queue = 'defer_q' and status = 'processing'), 'w1') \gset
select jq_test.advance('10 minutes') \gset
select ok(:'retried'::uuid in (select id from jq.jq_claim('defer_q', 'w1', 2)),
          '10 minutes later it is claimed again, by its turn with A');

select * from finish();
rollback;
