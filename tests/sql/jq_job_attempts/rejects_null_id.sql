-- A null job id is refused with 22004.
begin;
select plan(1);

select throws_ok($$select * from jq.jq_job_attempts(null)$$, '22004', 'job_id must not be null', 'a null id');

select * from finish();
rollback;
