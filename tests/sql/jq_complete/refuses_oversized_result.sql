-- jq_complete enforces jq.settings.max_result_bytes itself (other languages
-- call it too): a result whose JSON text is over the bound refuses the whole
-- call with 54000, naming the job and both sizes, and nothing of the batch
-- changes. Results not parallel to the ids: 22023, nothing changed.
begin;
select plan(11);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_ready(2, 'noop', 'complete_bound') \gset
select (select id from jq.jobs where queue = 'complete_bound' order by id limit 1) as a,
       (select id from jq.jobs where queue = 'complete_bound' order by id limit 1 offset 1) as b \gset
select count(*) from jq.jq_claim('complete_bound', 'w1', 2) \gset

select is((select max_result_bytes from jq.settings), 65536, 'the bound is 64 KiB by default');
update jq.settings set max_result_bytes = 1024;
-- '"xxx…"' of 1,025 bytes: 1,023 characters between the quotes.
select format('"%s"', repeat('x', 1023)) as big, format('"%s"', repeat('x', 1022)) as fits \gset

select throws_ok(format($$select * from jq.jq_complete(array[%L, %L]::uuid[], 'w1', array['1', %L]::jsonb[])$$,
                        :'a', :'b', :'big'),
                 '54000',
                 format('result of job %s is 1025 bytes; the limit is 1024 bytes (jq.settings.max_result_bytes)', :'b'),
                 'a result one byte over the bound refuses the call with 54000, naming the job and both sizes');
select is((select count(*)::int from jq.jobs where queue = 'complete_bound' and status = 'processing'), 2,
          'nothing of the batch changed: both jobs are still processing');
select is((select count(*)::int from jq.job_history where id in (:'a', :'b')), 0, 'and no history row was written');

-- The size is that of the JSON text as PostgreSQL prints it: UTF-8 bytes, not characters.
select throws_ok(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1', array[%L]::jsonb[])$$,
                        :'a', format('"%s"', repeat('é', 512))),
                 '54000', null, 'the bound counts bytes: 512 two-byte characters are 1,026 bytes');

select throws_ok(format($$select * from jq.jq_complete(array[%L, %L]::uuid[], 'w1', array['1']::jsonb[])$$,
                        :'a', :'b'),
                 '22023', 'results has 1 elements and job_ids 2: results[i] is the result of job_ids[i]',
                 'results not parallel to the ids: 22023');
select is((select count(*)::int from jq.jobs where queue = 'complete_bound' and status = 'processing'), 2,
          'nothing changed');

select set_eq(format($$select * from jq.jq_complete(array[%L, %L]::uuid[], 'w1', array[%L, null]::jsonb[])$$,
                     :'a', :'b', :'fits'),
              array[:'a', :'b']::uuid[], 'a result of exactly the bound is stored');
select is((select octet_length(result::text) from jq.job_history where id = :'a'), 1024, 'all 1,024 bytes of it');

-- 0: no results at all, but jobs still complete without one.
update jq.settings set max_result_bytes = 0;
select jq_test.enqueue_and_claim('w1', 'noop', 'complete_bound') as c \gset
select throws_ok(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1', array['{}']::jsonb[])$$, :'c'),
                 '54000', null, 'with a bound of 0 any result is refused');
select results_eq(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1', array[null]::jsonb[])$$, :'c'),
                  array[:'c'::uuid], 'and a job without one completes');

select * from finish();
rollback;
