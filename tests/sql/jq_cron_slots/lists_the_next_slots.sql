-- jq_cron_slots lists the next count slots strictly after a time (null: jq's
-- clock) in the cron's time zone, as jq_schedules_fire_due fires them.
begin;
select plan(4);

select results_eq($$select slot from jq.jq_cron_slots('0 8 * * *', 'Asia/Kolkata', '2026-03-01 00:00Z', 3)$$,
                  $$values ('2026-03-01 02:30Z'::timestamptz), ('2026-03-02 02:30Z'), ('2026-03-03 02:30Z')$$,
                  '08:00 in Kolkata is 02:30 UTC');
select results_eq($$select slot from jq.jq_cron_slots('0 8 * * *', 'Asia/Kolkata', '2026-03-01 02:30Z')$$,
                  $$values ('2026-03-02 02:30Z'::timestamptz)$$, 'strictly after; one by default');
select jq_test.set_now('2026-03-01 00:00Z') \gset
select results_eq($$select slot from jq.jq_cron_slots('*/20 9-17 * * mon-fri', 'Europe/Berlin', null, 4)$$,
                  $$values ('2026-03-02 08:00Z'::timestamptz), ('2026-03-02 08:20Z'), ('2026-03-02 08:40Z'),
                           ('2026-03-02 09:00Z')$$,
                  'null: from jq''s clock (Sunday the 1st: Monday 09:00 Berlin first)');
select results_eq($$select slot from jq.jq_cron_slots('0 0 13 * 5', 'UTC', '2026-03-01 00:00Z', 3)$$,
                  $$values ('2026-03-06 00:00Z'::timestamptz), ('2026-03-13 00:00Z'), ('2026-03-20 00:00Z')$$,
                  'both day fields restricted: either matches (Fridays and the 13th)');

select * from finish();
rollback;
