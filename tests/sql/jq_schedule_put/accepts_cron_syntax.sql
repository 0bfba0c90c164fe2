-- What the cron grammar accepts, and what it means (jq._cron_parse: the
-- values of each field; weekdays 0-6 with Sunday 0).
begin;
select plan(12);

select results_eq($$select * from jq._cron_parse('0 8 * * *')$$,
    $$select '{0}'::int[], '{8}'::int[], array(select generate_series(1, 31)), array(select generate_series(1, 12)),
             '{0,1,2,3,4,5,6}'::int[]$$,
    '0 8 * * *: minute 0, hour 8, every day');
select results_eq($$select minutes, hours, weekdays from jq._cron_parse('*/15 9-17 * * mon-fri')$$,
    $$values ('{0,15,30,45}'::int[], '{9,10,11,12,13,14,15,16,17}'::int[], '{1,2,3,4,5}'::int[])$$,
    'steps, ranges and weekday names');
select results_eq($$select days, months from jq._cron_parse('0 0 1,15 JAN,jul-SEP/2 *')$$,
    $$values ('{1,15}'::int[], '{1,7,9}'::int[])$$, 'lists, month names in any case, a stepped name range');
select is((select weekdays from jq._cron_parse('0 0 * * 7')), '{0}'::int[], '7 is Sunday');
select is((select weekdays from jq._cron_parse('0 0 * * 5-7')), '{0,5,6}'::int[], 'a range may end at 7');
select is((select minutes from jq._cron_parse('5/20 * * * *')), '{5,25,45}'::int[], 'a/step runs to the end of the field');
select is((select weekdays from jq._cron_parse('0 0 * * mon/2')), '{1,3,5}'::int[], 'a weekday a/step ends at Saturday');
select is((select minutes from jq._cron_parse('7-7 * * * *')), '{7}'::int[], 'a range of one value');
select results_eq($$select * from jq._cron_parse('@weekly')$$, $$select * from jq._cron_parse('0 0 * * 0')$$,
                  '@weekly is 0 0 * * 0');
select results_eq($$select * from jq._cron_parse(' @Daily ')$$, $$select * from jq._cron_parse('0 0 * * *')$$,
                  '@daily, any case and surrounding blanks');
select lives_ok($$select jq.jq_schedule_put('leap', '0 0 29 2 *', 'UTC', 't')$$, '29 February is accepted');
select lives_ok($$select jq.jq_schedule_put('or', '0 0 31 2 1', 'UTC', 't')$$,
                'an impossible day with a weekday is accepted (either day field may match)');

select * from finish();
rollback;
