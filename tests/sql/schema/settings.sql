-- jq.settings holds exactly one row of tunables, with the documented defaults
-- and bounds.
begin;
select plan(9);

select results_eq(
    'select idempotency_window, history_retention, history_premake_days, default_max_attempts from jq.settings',
    $$values (interval '24 hours', interval '30 days', 3, 25)$$,
    'one row: 24 h idempotency window, 30 days history, 3 days premade, 25 attempts');
select throws_ok('insert into jq.settings default values', '23505', null, 'a second row is refused (23505)');
select throws_ok('insert into jq.settings (singleton) values (false)', '23514', null,
                 'a non-singleton row is refused (23514)');
select throws_ok($$update jq.settings set idempotency_window = '0'$$, '23514', null, 'a zero idempotency window');
select throws_ok($$update jq.settings set history_retention = '23 hours'$$, '23514', null,
                 'a history retention under one day');
select throws_ok('update jq.settings set history_premake_days = 0', '23514', null, 'premaking no day ahead');
select throws_ok('update jq.settings set history_premake_days = 61', '23514', null, 'premaking more than 60 days');
select throws_ok('update jq.settings set default_max_attempts = 1001', '23514', null, 'default_max_attempts above 1000');

update jq.settings set default_max_attempts = 4;
select job_id as id from jq.jq_enqueue('t') \gset
select is((select max_attempts from jq.jobs where id = :'id'), 4::smallint,
          'jq_enqueue uses default_max_attempts when none is given');

select * from finish();
rollback;
