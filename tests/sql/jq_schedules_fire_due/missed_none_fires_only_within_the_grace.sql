-- missed = none: a slot fires only when it is at most
-- jq.settings.schedule_missed_grace (5 minutes) late; older ones are skipped,
-- and next_run_at moves on either way.
begin;
select plan(6);

select is((select schedule_missed_grace from jq.settings), interval '5 minutes', 'the grace is 5 minutes by default');

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('late', '0 8 * * *', 'UTC', 't', p_missed => 'none',
                                        p_next_run_at => '2026-03-01 08:00Z') \gset
select count(*) from jq.jq_schedule_put('missed', '0 7 * * *', 'UTC', 't', p_missed => 'none',
                                        p_next_run_at => '2026-03-01 07:00Z') \gset
select jq_test.set_now('2026-03-01 08:04Z') \gset

select is(jq.jq_schedules_fire_due(), 1, 'one job');
select results_eq($$select idempotency_key from jq.jobs$$, $$values ('schedule:late:2026-03-01T08:00:00Z'::text)$$,
                  'the slot 4 minutes late fires; the one 64 minutes late does not');
select results_eq($$select name, next_run_at from jq.jq_schedules() order by name$$,
                  $$values ('late'::text, '2026-03-02 08:00Z'::timestamptz), ('missed', '2026-03-02 07:00Z')$$,
                  'both move on to the next slot');

update jq.settings set schedule_missed_grace = '1 minute';
select jq_test.set_now('2026-03-02 08:02Z') \gset
select is(jq.jq_schedules_fire_due(), 0, 'with a grace of 1 minute, a slot 2 minutes late does not fire');
select throws_ok($$update jq.settings set schedule_missed_grace = '25 hours'$$, '23514', null,
                 'a grace over a day is refused (23514)');

select * from finish();
rollback;
