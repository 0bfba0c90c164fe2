-- Fall back: 01:00-01:59 happens twice in New York on 2026-11-01; a daily
-- 01:30 fires at its first occurrence (01:30 EDT, 05:30 UTC) and not again at
-- 01:30 EST, and an hourly schedule skips the repeated hour's second pass.
begin;
select plan(4);

select jq_test.set_now('2026-11-01 04:00Z') \gset
select count(*) from jq.jq_schedule_put('ny-0130', '30 1 * * *', 'America/New_York', 't',
                                        p_next_run_at => '2026-11-01 05:30Z') \gset
select count(*) from jq.jq_schedule_put('ny-hourly', '0 * * * *', 'America/New_York', 't',
                                        p_next_run_at => '2026-11-01 05:00Z') \gset
select jq_test.set_now('2026-11-01 05:00:01Z') \gset
select is(jq.jq_schedules_fire_due(), 1, '01:00 EDT fires');
select jq_test.set_now('2026-11-01 05:30:01Z') \gset
select is(jq.jq_schedules_fire_due(), 1, '01:30 EDT fires');
select jq_test.set_now('2026-11-01 06:30:01Z') \gset
select is(jq.jq_schedules_fire_due(), 0, 'nothing in the second pass (01:00-01:59 EST)');
select results_eq($$select name, next_run_at from jq.jq_schedules() order by name$$,
                  $$values ('ny-0130'::text, '2026-11-02 06:30Z'::timestamptz), ('ny-hourly', '2026-11-01 07:00Z')$$,
                  'next: 01:30 EST tomorrow, and 02:00 EST');

select * from finish();
rollback;
