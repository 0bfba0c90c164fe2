-- The timezone must be an IANA name from pg_timezone_names, spelled as
-- there: 22023 naming it otherwise (22004 for null), and nothing is written.
begin;
select plan(10);

select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', 'Mars/Olympus_Mons', 't')$$, '22023', null,
                 'an unknown zone raises 22023');
select throws_matching($$select jq.jq_schedule_put('d', '0 8 * * *', 'Mars/Olympus_Mons', 't')$$,
                       'timezone ''Mars/Olympus_Mons''', 'the message names the timezone');
select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', 'asia/kolkata', 't')$$, '22023', null,
                 'a wrongly cased name raises 22023 (names are case-sensitive, as in IANA and zoneinfo)');
select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', '+05:30', 't')$$, '22023', null,
                 'a fixed offset is not a time zone');
select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', 'PST', 't')$$, '22023', null,
                 'an abbreviation is not a time zone');
select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', 'localtime', 't')$$, '22023', null,
                 'localtime (the server''s zone file) is refused');
select throws_ok($$select jq.jq_schedule_put('d', '0 8 * * *', null, 't')$$, '22004', null,
                 'a null timezone raises 22004');
select is((select count(*)::int from jq.schedules), 0, 'nothing was written');

select lives_ok($$select jq.jq_schedule_put('k', '0 8 * * *', 'Asia/Kolkata', 't')$$, 'Asia/Kolkata is accepted');
select lives_ok($$select jq.jq_schedule_put('u', '0 8 * * *', 'UTC', 't')$$, 'UTC is accepted');

select * from finish();
rollback;
