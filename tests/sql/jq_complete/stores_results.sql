-- jq_complete stores each handler's result with its history row:
-- p_results[i] belongs to p_job_ids[i]; a null element, or a null array, is
-- no result. Any JSON value is a result: object, array, string, number.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_ready(6, 'noop', 'complete_results') \gset
create temp table claimed as
select id, row_number() over (order by id) as n from jq.jq_claim('complete_results', 'w1', 6);
select (select id from claimed where n = 1) as a, (select id from claimed where n = 2) as b,
       (select id from claimed where n = 3) as c, (select id from claimed where n = 4) as d,
       (select id from claimed where n = 5) as e, (select id from claimed where n = 6) as f \gset

select set_eq(format($$select * from jq.jq_complete(array[%L, %L, %L, %L]::uuid[], 'w1',
                                                  array['{"pdf": "inv-42.pdf", "pages": 3}', null,
                                                        '"sent"', '[1, 2.5, "é"]']::jsonb[])$$,
                     :'a', :'b', :'c', :'d'),
              array[:'a', :'b', :'c', :'d']::uuid[], 'it completes the jobs with and without results');
select is((select result from jq.job_history where id = :'a'), '{"pdf": "inv-42.pdf", "pages": 3}'::jsonb,
          'an object result is stored with the history row');
select is((select result from jq.job_history where id = :'b'), null, 'a null element stores no result');
select is((select result from jq.job_history where id = :'c'), '"sent"'::jsonb, 'a string result');
select is((select result from jq.job_history where id = :'d'), '[1, 2.5, "é"]'::jsonb, 'an array result');

select results_eq(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1', null)$$, :'e'),
                  array[:'e'::uuid], 'a null results array completes as before');
select is((select result from jq.job_history where id = :'e'), null, 'and stores no result');

-- An id named twice: its first result is kept, one history row.
select count(*) from jq.jq_complete(array[:'f', :'f']::uuid[], 'w1', array['42', '43']::jsonb[]) \gset
select results_eq(format('select result from jq.job_history where id = %L', :'f'), $$values ('42'::jsonb)$$,
                  'an id given twice keeps its first result and gets one history row');

select * from finish();
rollback;
