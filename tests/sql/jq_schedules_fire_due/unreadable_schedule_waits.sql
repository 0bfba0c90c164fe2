-- A schedule whose time zone jq cannot read (written behind the functions'
-- back) fires nothing, warns, and is tried again in 10 minutes; the others
-- in the same call fire.
begin;
select plan(3);

select jq_test.set_now('2026-03-01 00:00Z') \gset
insert into jq.schedules (name, cron, timezone, type, next_run_at)
values ('broken', '0 8 * * *', 'Nowhere/Atlantis', 't', '2026-03-01 08:00Z');
select count(*) from jq.jq_schedule_put('fine', '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:01Z') \gset

set local client_min_messages = error;  -- the WARNING naming the schedule
select is(jq.jq_schedules_fire_due(), 1, 'the readable schedule fires');
select results_eq($$select idempotency_key from jq.jobs$$, $$values ('schedule:fine:2026-03-01T08:00:00Z'::text)$$,
                  'only it');
select is((select next_run_at from jq.jq_schedules('broken')), '2026-03-01 08:10:01Z'::timestamptz,
          'the broken one waits 10 minutes');

select * from finish();
rollback;
