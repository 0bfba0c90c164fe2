-- A bad cron, time zone, count or time raises with its own SQLSTATE, as
-- jq_schedule_put's checks do.
begin;
select plan(8);

select throws_ok($$select * from jq.jq_cron_slots('0 25 * * *', 'UTC')$$, '22023',
                 'cron ''0 25 * * *'' is invalid: hour 25 is out of range 0-23', 'an hour out of range (22023)');
select throws_ok($$select * from jq.jq_cron_slots('0 8 * *', 'UTC')$$, '22023', null, 'four fields (22023)');
select throws_ok($$select * from jq.jq_cron_slots('0 0 31 2 *', 'UTC')$$, '22023', null, 'a cron that never fires (22023)');
select throws_ok($$select * from jq.jq_cron_slots(null, 'UTC')$$, '22004', null, 'a null cron (22004)');
select throws_ok($$select * from jq.jq_cron_slots('0 8 * * *', 'Mars/Olympus_Mons')$$, '22023',
                 'timezone ''Mars/Olympus_Mons'' is not a known IANA time zone name', 'an unknown time zone (22023)');
select throws_ok($$select * from jq.jq_cron_slots('0 8 * * *', 'UTC', null, 0)$$, '22023', null, 'count 0 (22023)');
select throws_ok($$select * from jq.jq_cron_slots('0 8 * * *', 'UTC', null, 1001)$$, '22023', null, 'count 1001 (22023)');
select throws_ok($$select * from jq.jq_cron_slots('0 8 * * *', 'UTC', 'infinity')$$, '22023', null,
                 'an infinite time (22023)');

select * from finish();
rollback;
