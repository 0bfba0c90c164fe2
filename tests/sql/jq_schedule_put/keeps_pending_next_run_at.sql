-- An update that keeps cron and timezone keeps the pending next_run_at (a
-- due slot is not skipped); changing either starts over from p_next_run_at.
begin;
select plan(5);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('d', '0 8 * * *', 'Asia/Kolkata', 't', p_next_run_at => '2026-03-01 02:30Z') \gset
select jq_test.set_now('2026-03-05 00:00Z') \gset

select is((select next_run_at from jq.jq_schedule_put('d', '0 8 * * *', 'Asia/Kolkata', 't2', p_jitter_seconds => 60,
                                                      p_next_run_at => '2026-03-05 02:30Z')),
          '2026-03-01 02:30Z'::timestamptz, 'same cron and timezone: the pending next_run_at is kept');
select is((select next_run_at from jq.jq_schedules('d')), '2026-03-01 02:30Z'::timestamptz, 'and stored');
select is((select next_run_at from jq.jq_schedule_put('d', '0 9 * * *', 'Asia/Kolkata', 't',
                                                      p_next_run_at => '2026-03-05 03:30Z')),
          '2026-03-05 03:30Z'::timestamptz, 'a new cron takes the new next_run_at');
select is((select next_run_at from jq.jq_schedule_put('d', '0 9 * * *', 'Europe/Berlin', 't')),
          null::timestamptz, 'a new timezone without next_run_at leaves it to the scheduler (null)');
select is((select next_run_at from jq.jq_schedule_put('d', '0 9 * * *', 'Europe/Berlin', 't',
                                                      p_next_run_at => '2026-03-05 08:00Z')),
          '2026-03-05 08:00Z'::timestamptz, 'a null next_run_at is replaced by a given one');

select * from finish();
rollback;
