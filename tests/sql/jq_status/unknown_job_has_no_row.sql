-- An id jq never saw: no row (the HTTP layer answers 404).
begin;
select plan(2);

select is_empty($$select * from jq.jq_status('00000000-0000-4000-8000-000000000000')$$, 'an unknown id returns no row');
select is_empty($$select * from jq.jq_status(gen_random_uuid())$$, 'neither does a fresh random id');

select * from finish();
rollback;
