-- jq_enqueue_many: one row per element, in input order, each job stored with
-- its own fields and the same defaults as jq_enqueue.
begin;
select plan(12);

select jq_test.set_now('2030-01-01 12:00Z') \gset

create temp table result as
select r.*
  from jq.jq_enqueue_many($$[
        {"type": "c.third", "payload": {"n": 3}},
        {"type": "a.first", "queue": "mail", "priority": 7, "max_attempts": 2,
         "idempotency_key": "k-a", "tenant": "acme"},
        {"type": "b.second", "run_at": "2030-01-02T12:00:00Z"},
        {"type": "d.fourth", "run_at": "2029-12-31T00:00:00+01:00", "payload": null, "queue": null}
       ]$$) with ordinality as r(job_id, status, duplicate, ord);

select is((select count(*)::int from result), 4, 'one row per element');
select results_eq($$select j.type from result r join jq.jobs j on j.id = r.job_id order by r.ord$$,
                  array['c.third', 'a.first', 'b.second', 'd.fourth'],
                  'the rows come back in input order');
select results_eq($$select status from result order by ord$$,
                  array['queued', 'queued', 'scheduled', 'queued'],
                  'status is queued, or scheduled for a future run_at');
select is((select count(*)::int from result where duplicate), 0, 'none is a duplicate');
select is((select count(distinct job_id)::int from result), 4, 'four distinct ids');

select results_eq($$select j.queue, j.priority, j.max_attempts, j.payload, j.tenant, j.idempotency_key
                      from result r join jq.jobs j on j.id = r.job_id where r.ord = 1$$,
                  $$values ('default'::text, 0::smallint, 25::smallint, '{"n": 3}'::jsonb, null::text, null::text)$$,
                  'missing keys take the defaults: queue default, priority 0, max_attempts 25');
select results_eq($$select j.queue, j.priority, j.max_attempts, j.payload, j.tenant, j.idempotency_key
                      from result r join jq.jobs j on j.id = r.job_id where r.ord = 2$$,
                  $$values ('mail'::text, 7::smallint, 2::smallint, '{}'::jsonb, 'acme'::text, 'k-a'::text)$$,
                  'given keys are stored; a missing payload is an empty object');
select is((select j.run_at from result r join jq.jobs j on j.id = r.job_id where r.ord = 3),
          '2030-01-02 12:00Z'::timestamptz, 'run_at is parsed with its offset');
select is((select j.run_at from result r join jq.jobs j on j.id = r.job_id where r.ord = 1),
          '2030-01-01 12:00Z'::timestamptz, 'a missing run_at is jq''s now');
select results_eq($$select j.queue, j.payload from result r join jq.jobs j on j.id = r.job_id where r.ord = 4$$,
                  $$values ('default'::text, '{}'::jsonb)$$,
                  'JSON null for queue and payload means the default');
select is((select job_id from jq.idempotency_keys where queue = 'mail' and idempotency_key = 'k-a'),
          (select job_id from result where ord = 2), 'the key is recorded against its job');

select is_empty($$select * from jq.jq_enqueue_many('[]')$$, 'an empty array enqueues nothing and returns no row');

select * from finish();
rollback;
