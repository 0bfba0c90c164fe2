-- jq_release hands a leased job back unrun: pending again at its place in
-- the queue, with the attempt not counted, claimable at once.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'rel_ok', 1) as job \gset
select run_at as run_at from jq.jobs where id = :'job' \gset

select jq_test.advance('10 seconds') \gset
select results_eq(format($$select job_id, status from jq.jq_release(array[%L]::uuid[], 'w1')$$, :'job'),
                  format($$values (%L::uuid, 'released'::text)$$, :'job'), 'the job is released');
select results_eq($$select status, locked_by, locked_until, attempts from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('pending'::text, null::text, null::timestamptz, 0::smallint)$$,
                  'it is pending, unleased, with attempts back to 0');
select is((select run_at from jq.jobs where id = :'job'), :'run_at'::timestamptz, 'run_at is unchanged');
select is((select status from jq.jq_status(:'job'::uuid)), 'queued', 'jq_status reports queued again');

create temp table again as select * from jq.jq_claim('rel_ok', 'w2', 10);
select results_eq($$select id, attempts from again$$, format($$values (%L::uuid, 1::smallint)$$, :'job'),
                  'another worker claims it at once, as attempt 1 (max_attempts 1 is not used up)');

-- A job on its second attempt goes back to 1 and keeps its previous error.
select job_id as job2 from jq.jq_enqueue('noop', '{}', 'rel_ok', 0, null, 3) \gset
select count(*) from jq.jq_claim('rel_ok', 'w1') \gset
select count(*) from jq.jq_fail(:'job2'::uuid, 'w1', 'first try failed', '0 seconds') \gset
select count(*) from jq.jq_claim('rel_ok', 'w1') \gset
select count(*) from jq.jq_release(array[:'job2'::uuid], 'w1') \gset
select results_eq($$select attempts, last_error from jq.jobs where id = $$ || quote_literal(:'job2'),
                  $$values (1::smallint, 'first try failed'::text)$$,
                  'releasing attempt 2 leaves attempts at 1 and the previous error');

select * from finish();
rollback;
