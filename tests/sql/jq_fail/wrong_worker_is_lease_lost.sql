-- jq_fail from a worker that does not hold the job returns lease_lost and
-- changes nothing.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_lost', 5, '1 minute') as job \gset
create temp table before as select * from jq.jobs where id = :'job';

select results_eq(format($$select * from jq.jq_fail(%L, 'w2', 'not mine')$$, :'job'),
                  $$values ('lease_lost'::text, null::timestamptz)$$, 'another worker gets lease_lost');
select results_eq($$select * from jq.jobs where id = $$ || quote_literal(:'job'), $$select * from before$$,
                  'the job row is unchanged');
select results_eq($$select * from jq.jq_fail(gen_random_uuid(), 'w1', 'x')$$,
                  $$values ('lease_lost'::text, null::timestamptz)$$, 'an unknown id gets lease_lost');

select job_id as pending from jq.jq_enqueue('noop', '{}', 'fail_lost') \gset
select is((select status from jq.jq_fail(:'pending'::uuid, 'w1', 'x')), 'lease_lost', 'a pending job gets lease_lost');
select is((select last_error from jq.jobs where id = :'pending'), null, 'and keeps no error');

-- Lease expired and the job went to another worker: the first worker's failure is refused.
select jq_test.advance('2 minutes') \gset
select count(*) from jq.jq_claim('fail_lost', 'w2', 1, '5 minutes', array['noop']) \gset
select is((select status from jq.jq_fail(:'job'::uuid, 'w1', 'late')), 'lease_lost',
          'after its lease was reaped and re-claimed, the old worker gets lease_lost');
select results_eq($$select locked_by, status from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('w2'::text, 'processing'::text)$$, 'the job stays with w2');

select * from finish();
rollback;
