-- jq_fail on the last attempt moves the job to jq.dead_jobs with the error.
begin;
select plan(11);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select job_id as job from jq.jq_enqueue('charge', '{"amount": 5}', 'fail_dead', 3, null, 2, 'charge-1', 'acme') \gset

select count(*) from jq.jq_claim('fail_dead', 'w1') \gset
select is((select status from jq.jq_fail(:'job'::uuid, 'w1', 'card declined', '1 minute')), 'failed_retrying',
          'attempt 1 of 2 fails: retrying');

select jq_test.advance('1 minute') \gset
select count(*) from jq.jq_claim('fail_dead', 'w1') \gset
select results_eq(format($$select * from jq.jq_fail(%L, 'w1', 'card declined for inv_77')$$, :'job'),
                  $$values ('dead'::text, null::timestamptz)$$,
                  'attempt 2 of 2 fails: dead, no next attempt');

select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'the job left jq.jobs');
select is((select last_error from jq.dead_jobs where id = :'job'), 'card declined for inv_77',
          'jq.dead_jobs keeps the last error');
select is((select error_fingerprint from jq.dead_jobs where id = :'job'), jq.error_fingerprint('card declined for inv_77'),
          'and its fingerprint');
select results_eq($$select attempts, max_attempts, failed_at from jq.dead_jobs where id = $$ || quote_literal(:'job'),
                  $$values (2::smallint, 2::smallint, '2030-01-01 12:01Z'::timestamptz)$$,
                  'attempts, max_attempts and failed_at are recorded');
select results_eq($$select queue, type, payload, priority, tenant, idempotency_key from jq.dead_jobs where id = $$ || quote_literal(:'job'),
                  $$values ('fail_dead'::text, 'charge'::text, '{"amount": 5}'::jsonb, 3::smallint, 'acme'::text, 'charge-1'::text)$$,
                  'the job''s data is kept for a later retry');
select is((select status from jq.jq_status(:'job'::uuid)), 'dead', 'jq_status reports dead');
select is((select expires_at from jq.idempotency_keys where idempotency_key = 'charge-1'),
          '2030-01-02 12:01Z'::timestamptz, 'the key is held for the window from the time it died');

-- max_attempts 1: the first failure is final.
select jq_test.enqueue_and_claim('w1', 'once', 'fail_dead', 1) as once \gset
select is((select status from jq.jq_fail(:'once'::uuid, 'w1', 'nope')), 'dead', 'max_attempts 1: the first failure is dead');
select is_empty($$select * from jq.jq_claim('fail_dead', 'w1', 10, '5 minutes', array['once'])$$,
                'a dead job is never claimed');

select * from finish();
rollback;
