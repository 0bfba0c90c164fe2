-- jq_release acts only on jobs the calling worker holds.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'rel_other') as theirs \gset
select jq_test.enqueue_and_claim('w2', 'noop', 'rel_other') as mine \gset
create temp table before as select * from jq.jobs where id = :'theirs';

select is_empty(format($$select * from jq.jq_release(array[%L]::uuid[], 'w2')$$, :'theirs'),
                'another worker''s job is not released');
select results_eq($$select * from jq.jobs where id = $$ || quote_literal(:'theirs'), $$select * from before$$,
                  'its row is unchanged');
select results_eq(format($$select job_id from jq.jq_release(array[%L, %L, gen_random_uuid()]::uuid[], 'w2')$$, :'theirs', :'mine'),
                  array[:'mine'::uuid], 'of a mixed list only the caller''s own job is released');
select is((select locked_by from jq.jobs where id = :'theirs'), 'w1', 'the other job stays with w1');

select throws_ok($$select * from jq.jq_release(array[gen_random_uuid()], null)$$, '22004', null,
                 'a null worker raises 22004');
select throws_ok($$select * from jq.jq_release(null, 'w1')$$, '22004', null, 'null job_ids raises 22004');

select * from finish();
rollback;
