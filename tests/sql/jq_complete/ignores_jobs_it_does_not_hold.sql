-- jq_complete acts only on jobs the calling worker holds: another worker's
-- job, a pending job or an unknown id is left alone and not returned.
begin;
select plan(8);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'complete_other') as theirs \gset
select jq_test.enqueue_and_claim('w2', 'noop', 'complete_other') as mine \gset
select job_id as pending from jq.jq_enqueue('noop', '{}', 'complete_other') \gset

select is_empty(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w2')$$, :'theirs'),
                'another worker''s job is not completed');
select results_eq($$select status, locked_by from jq.jobs where id = $$ || quote_literal(:'theirs'),
                  $$values ('processing'::text, 'w1'::text)$$, 'it is still processing for w1');
select is_empty(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w2')$$, :'pending'),
                'a pending job is not completed');
select is((select status from jq.jobs where id = :'pending'), 'pending', 'it is still pending');
select is_empty($$select * from jq.jq_complete(array[gen_random_uuid()], 'w2')$$, 'an unknown id returns nothing');

select results_eq(format($$select * from jq.jq_complete(array[%L, %L, %L]::uuid[], 'w2')$$, :'theirs', :'mine', :'pending'),
                  array[:'mine'::uuid], 'of a mixed list only the caller''s own job is completed');
select is((select count(*)::int from jq.job_history where id in (:'theirs', :'pending')), 0,
          'no history row for the jobs left alone');

select throws_ok($$select * from jq.jq_complete(null, 'w1')$$, '22004', null, 'null job_ids raises 22004');

select * from finish();
rollback;
