-- Invariant 3: a job whose lease expired on its last attempt is moved to
-- jq.dead_jobs by the next claim on its queue, with an error saying the
-- lease expired, and is never returned by the claim. A job that kills its
-- worker every time therefore runs max_attempts times and no more.
begin;
select plan(11);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'crasher', 'claim_dead', 1, '1 minute') as job \gset
select job_id as other from jq.jq_enqueue('fine', '{}', 'claim_dead') \gset

select jq_test.advance('2 minutes') \gset
create temp table claimed as select * from jq.jq_claim('claim_dead', 'w2', 10);

select results_eq($$select id from claimed$$, array[:'other'::uuid],
                  'the claim returns the other ready job, not the expired one');
select is((select count(*)::int from jq.jobs where id = :'job'), 0, 'the expired job left jq.jobs');
select is((select count(*)::int from jq.dead_jobs where id = :'job'), 1, 'it is in jq.dead_jobs');
select matches((select last_error from jq.dead_jobs where id = :'job'), 'lease expired',
               'its last_error says the lease expired');
select results_eq($$select attempts, max_attempts, failed_at from jq.dead_jobs where id = $$ || quote_literal(:'job'),
                  $$values (1::smallint, 1::smallint, '2030-01-01 12:02Z'::timestamptz)$$,
                  'attempts, max_attempts and failed_at are recorded');
select is((select error_fingerprint from jq.dead_jobs where id = :'job'),
          (select jq.error_fingerprint(last_error) from jq.dead_jobs where id = :'job'),
          'its error fingerprint is computed');
select is((select status from jq.jq_status(:'job'::uuid)), 'dead', 'jq_status reports dead');

-- A crasher with three attempts: claimed three times, then dead; never a fourth run.
select job_id as crasher from jq.jq_enqueue('crasher3', '{}', 'claim_dead', 0, null, 3) \gset
create temp table runs (attempt smallint);
do $$
begin
    for i in 1 .. 6 loop
        insert into runs
        select c.attempts from jq.jq_claim('claim_dead', 'w-' || i, 1, '1 minute', array['crasher3']) c;
        perform jq_test.advance('2 minutes');
    end loop;
end
$$;
select results_eq($$select attempt from runs order by attempt$$, array[1, 2, 3]::smallint[],
                  'the crasher ran exactly three times');
select is((select count(*)::int from jq.jobs where id = :'crasher'), 0, 'it left jq.jobs');
select matches((select last_error from jq.dead_jobs where id = :'crasher'), 'lease expired',
               'it is dead with a lease-expired error');
select is((select attempts from jq.dead_jobs where id = :'crasher'), 3::smallint, 'after 3 attempts');

select * from finish();
rollback;
