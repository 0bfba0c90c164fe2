-- An id jq never saw answers 'not_found'.
begin;
select plan(2);

select is(jq.jq_cancel('00000000-0000-4000-8000-000000000000'), 'not_found', 'an unknown id answers not_found');
select is(jq.jq_cancel(gen_random_uuid()), 'not_found', 'so does a fresh random id');

select * from finish();
rollback;
