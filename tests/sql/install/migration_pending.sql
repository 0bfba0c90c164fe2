-- jq._migration_pending: false for a migration in the ledger (and no lock
-- taken), true for a missing one, after taking the install's table locks
-- (jq._install_lock_tables), so that no migration waits for a lock while
-- holding others.
begin;
select plan(4);

select is(jq._migration_pending((select min(version) from jq.migrations)), false, 'an applied migration is not pending');
select is((select count(*)::integer from pg_locks l join pg_class c on c.oid = l.relation
            where l.pid = pg_backend_pid() and c.relnamespace = 'jq'::regnamespace
              and l.mode = 'AccessExclusiveLock'),
          0, 'and asking took no table lock');
select is(jq._migration_pending((select max(version) + 1 from jq.migrations)), true, 'a missing migration is pending');
select is(current_setting('jq.install_locked', true), 'on', 'and the install''s table locks were taken first');

select * from finish();
rollback;
