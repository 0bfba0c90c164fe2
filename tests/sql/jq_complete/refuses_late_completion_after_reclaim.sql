-- A worker whose lease expired and whose job another worker claimed cannot
-- complete it any more: its late completion changes nothing.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'complete_late', null, '1 minute') as job \gset

select jq_test.advance('2 minutes') \gset
select results_eq($$select id from jq.jq_claim('complete_late', 'w2', 1)$$, array[:'job'::uuid],
                  'after the lease expired w2 claims the job');

select is_empty(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1')$$, :'job'),
                'w1''s late completion returns nothing');
select results_eq($$select status, locked_by, attempts from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('processing'::text, 'w2'::text, 2::smallint)$$, 'the job is still w2''s');
select is((select count(*)::int from jq.job_history where id = :'job'), 0, 'no history row was written');

select results_eq(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w2')$$, :'job'), array[:'job'::uuid],
                  'w2 completes it');
select is((select attempts from jq.job_history where id = :'job'), 2::smallint, 'history records two attempts');

select * from finish();
rollback;
