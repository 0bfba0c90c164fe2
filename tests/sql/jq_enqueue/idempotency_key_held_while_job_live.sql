-- A key stays held as long as its job is in jq.jobs, however long that is:
-- the window only starts counting once the job has left.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as scheduled from jq.jq_enqueue('t', '{}', 'default', 0, '2030-01-04 12:00Z', null, 'in-3-days') \gset
select job_id as waiting from jq.jq_enqueue('slow', '{}', 'default', 0, null, null, 'never-claimed') \gset

select jq_test.advance('25 hours') \gset
select results_eq($$select job_id, status, duplicate from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'in-3-days')$$,
                  format($$values (%L::uuid, 'scheduled'::text, true)$$, :'scheduled'),
                  'after 25 hours a job scheduled 3 days ahead still holds its key');
select is((select job_id from jq.jq_enqueue('slow', '{}', 'default', 0, null, null, 'never-claimed')),
          :'waiting'::uuid, 'after 25 hours a ready job nobody claimed still holds its key');

select jq_test.advance('3 days') \gset
select is((select count(*)::int from jq.jq_claim('default', 'w1', 10, '5 minutes', array['t'])), 1,
          'the scheduled job is finally claimed');
select is((select job_id from jq.jq_enqueue('t', '{}', 'default', 0, null, null, 'in-3-days')),
          :'scheduled'::uuid, 'four days after enqueue a running job still holds its key');
select is((select count(*)::int from jq.jobs where type = 't'), 1, 'no second job was made');

select * from finish();
rollback;
