-- jq_fail: bad arguments raise their SQLSTATE and change nothing.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'fail_args', 5) as job \gset
create temp table target as select :'job'::uuid as id;

select throws_ok($$select * from jq.jq_fail((select id from target), 'w1', 'x', '-1 second')$$, '22023', null,
                 'a negative retry_in raises 22023');
select throws_like($$select * from jq.jq_fail((select id from target), 'w1', 'x', '-1 second')$$, '%retry_in%',
                   'the message names retry_in');
select throws_ok($$select * from jq.jq_fail(null, 'w1', 'x')$$, '22004', null, 'a null job_id raises 22004');
select throws_ok($$select * from jq.jq_fail((select id from target), null, 'x')$$, '22004', null,
                 'a null worker raises 22004');
select throws_ok($$select * from jq.jq_fail((select id from target), 'w1', 'x', '366 days')$$, '22023', null,
                 'retry_in over 365 days raises 22023');
select results_eq($$select status, locked_by, last_error from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('processing'::text, 'w1'::text, null::text)$$,
                  'the job is still processing for w1 with no error recorded');

select * from finish();
rollback;
