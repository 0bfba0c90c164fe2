-- Invariant 8: jq_complete removes the job from jq.jobs at once and appends
-- a succeeded row to jq.job_history. It returns the ids it completed.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_ready(3, 'noop', 'complete_ok') \gset
create temp table claimed as select * from jq.jq_claim('complete_ok', 'w1', 3);
select (select id from claimed order by id limit 1) as a, (select id from claimed order by id limit 1 offset 1) as b,
       (select id from claimed order by id limit 1 offset 2) as c \gset

select jq_test.advance('30 seconds') \gset
select set_eq(format($$select * from jq.jq_complete(array[%L, %L]::uuid[], 'w1')$$, :'a', :'b'),
              array[:'a', :'b']::uuid[], 'it returns the two ids it completed');

select is((select count(*)::int from jq.jobs where id in (:'a', :'b')), 0, 'both left jq.jobs');
select is((select status from jq.jobs where id = :'c'), 'processing', 'the job not named is still processing');
select results_eq($$select status, attempts, finished_at from jq.job_history where id = $$ || quote_literal(:'a'),
                  $$values ('succeeded'::text, 1::smallint, '2030-01-01 12:00:30Z'::timestamptz)$$,
                  'history has a succeeded row with its attempts and finished_at = now');
select results_eq($$select queue, type, run_at, created_at from jq.job_history where id = $$ || quote_literal(:'a'),
                  $$values ('complete_ok'::text, 'noop'::text, '2030-01-01 12:00Z'::timestamptz,
                            '2030-01-01 12:00Z'::timestamptz)$$,
                  'history keeps the queue, type, run_at and created_at');
select is((select count(*)::int from jq.job_history where id in (:'a', :'b')), 2, 'one history row per job');
select is((select status from jq.jq_status(:'a'::uuid)), 'succeeded', 'jq_status reports succeeded');

-- Completing again changes nothing.
select is_empty(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1')$$, :'a'),
                'completing a finished job again returns nothing');
select is((select count(*)::int from jq.job_history where id = :'a'), 1, 'and writes no second history row');

select * from finish();
rollback;
