-- jq.schedules bounds its fields with named CHECK constraints too.
begin;
select plan(3);

select set_eq(
    $$select conname::text from pg_constraint where conrelid = 'jq.schedules'::regclass and contype = 'c'$$,
    $$values ('schedules_name_length'), ('schedules_type_length'), ('schedules_queue_format'),
             ('schedules_payload_object'), ('schedules_max_attempts_range'), ('schedules_jitter_range'),
             ('schedules_cron_length'), ('schedules_timezone_length'), ('schedules_missed_valid')$$,
    'jq.schedules has these named CHECK constraints');
select lives_ok($$insert into jq.schedules (name, cron, type) values ('nightly', '0 3 * * *', 'report.build')$$,
                'a schedule with a name, cron and type is valid');
select throws_ok($$insert into jq.schedules (name, cron, type, jitter_seconds) values ('x', '* * * * *', 't', -1)$$,
                 '23514', null, 'a negative jitter raises 23514');

select * from finish();
rollback;
