-- jq_enqueue with a run_at: scheduled when in the future, queued otherwise.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select is((select status from jq.jq_enqueue('report', '{}', 'default', 0, '2030-01-01 13:00Z')),
          'scheduled', 'a run_at one hour ahead is scheduled');
select is((select status from jq.jq_enqueue('report', '{}', 'default', 0, '2030-01-01 12:00:00.001Z')),
          'scheduled', 'a run_at one millisecond ahead is scheduled');
select is((select status from jq.jq_enqueue('report', '{}', 'default', 0, '2030-01-01 12:00Z')),
          'queued', 'a run_at equal to now is queued');
select is((select status from jq.jq_enqueue('report', '{}', 'default', 0, '2029-12-31 12:00Z')),
          'queued', 'a run_at in the past is queued');

select job_id as later from jq.jq_enqueue('later', '{}', 'default', 0, '2030-01-04 12:00+05') \gset
select is((select run_at from jq.jobs where id = :'later'),
          '2030-01-04 07:00Z'::timestamptz, 'the given run_at is stored as is');
select is((select count(*)::int from jq.jobs where type = 'report'), 4, 'every call inserted one job');

select * from finish();
rollback;
