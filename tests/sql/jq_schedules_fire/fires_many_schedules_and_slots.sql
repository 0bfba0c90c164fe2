-- One call, many schedules and slots: a schedule with several slots
-- (missed = all) repeats its name, due_at and next_run_at; a null slot only
-- advances next_run_at; a schedule whose next_run_at is not due_at is left
-- alone; a never-computed schedule (null next_run_at) is matched by a null
-- due_at.
begin;
select plan(7);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put('all', '0 * * * *', 'UTC', 't', p_missed => 'all',
                                        p_next_run_at => '2026-03-01 05:00Z') \gset
select count(*) from jq.jq_schedule_put('skip', '0 * * * *', 'UTC', 't', p_next_run_at => '2026-03-01 05:00Z') \gset
select count(*) from jq.jq_schedule_put('moved', '0 * * * *', 'UTC', 't', p_next_run_at => '2026-03-01 07:00Z') \gset
select count(*) from jq.jq_schedule_put('fresh', '0 * * * *', 'UTC', 't') \gset
select jq_test.set_now('2026-03-01 07:30Z') \gset

select results_eq(
    $$select schedules, jobs from jq.jq_schedules_fire(
        array['all', 'all', 'all', 'skip', 'moved', 'fresh'],
        array['2026-03-01 05:00Z', '2026-03-01 05:00Z', '2026-03-01 05:00Z', '2026-03-01 05:00Z', '2026-03-01 05:00Z', null]::timestamptz[],
        array['2026-03-01 05:00Z', '2026-03-01 06:00Z', '2026-03-01 07:00Z', null, '2026-03-01 05:00Z', '2026-03-01 07:00Z']::timestamptz[],
        array['2026-03-01 08:00Z', '2026-03-01 08:00Z', '2026-03-01 08:00Z', '2026-03-01 08:00Z', '2026-03-01 08:00Z', '2026-03-01 08:00Z']::timestamptz[])$$,
    $$values (3, 4)$$, 'three schedules advanced (not moved), four jobs');
select results_eq($$select idempotency_key from jq.jobs where idempotency_key like 'schedule:all:%' order by 1$$,
                  $$values ('schedule:all:2026-03-01T05:00:00Z'::text), ('schedule:all:2026-03-01T06:00:00Z'),
                           ('schedule:all:2026-03-01T07:00:00Z')$$,
                  'every slot of the missed = all schedule');
select results_eq($$select next_run_at, last_slot_at from jq.jq_schedules('all')$$,
                  $$values ('2026-03-01 08:00Z'::timestamptz, '2026-03-01 07:00Z'::timestamptz)$$,
                  'last_slot_at is its latest slot');
select results_eq($$select next_run_at, last_slot_at from jq.jq_schedules('skip')$$,
                  $$values ('2026-03-01 08:00Z'::timestamptz, null::timestamptz)$$,
                  'a null slot only advances next_run_at');
select is((select count(*)::int from jq.jobs where idempotency_key like 'schedule:skip:%'), 0, 'and enqueues nothing');
select results_eq($$select next_run_at from jq.jq_schedules('moved')$$, $$values ('2026-03-01 07:00Z'::timestamptz)$$,
                  'a schedule whose next_run_at is not due_at is left alone');
select results_eq($$select next_run_at, last_slot_at from jq.jq_schedules('fresh')$$,
                  $$values ('2026-03-01 08:00Z'::timestamptz, '2026-03-01 07:00Z'::timestamptz)$$,
                  'a null due_at matches a never-computed next_run_at');

select * from finish();
rollback;
