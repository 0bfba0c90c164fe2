-- jq._install_lock_tables, the installer's table locks: ACCESS EXCLUSIVE on
-- every table of schema jq (each partition through its parent) in one call,
-- the session's lock_timeout given back afterwards, function bodies no
-- longer checked as they are created, and nothing more the second time in
-- the same transaction.
begin;
select plan(7);

set local lock_timeout = '7s';
select lives_ok('select jq._install_lock_tables()', 'takes the locks');
select is((select count(*)::integer
             from pg_class c
            where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p')
              and not exists (select 1 from pg_locks l
                               where l.pid = pg_backend_pid() and l.relation = c.oid
                                 and l.mode = 'AccessExclusiveLock' and l.granted)),
          0, 'every table of schema jq, partitions included, is locked ACCESS EXCLUSIVE');
select ok((select count(*) from pg_class c where c.relnamespace = 'jq'::regnamespace and c.relispartition) > 0,
          'the schema has partitions (the check above covers them)');
select is(current_setting('lock_timeout'), '7s', 'the session''s lock_timeout is given back');
select is(current_setting('jq.install_locked'), 'on', 'the transaction remembers it holds them');
select is(current_setting('check_function_bodies'), 'off', 'the functions created from now on are not checked');
-- A second call returns at once, even with no time left to wait.
set local jq.install_lock_try = '1ms';
set local jq.install_lock_wait = '0';
select lives_ok('select jq._install_lock_tables()', 'a second call in the transaction does nothing');

select * from finish();
rollback;
