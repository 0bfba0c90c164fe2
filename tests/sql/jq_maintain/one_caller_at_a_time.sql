-- Many workers call jq_maintain; one does the work and the others return at
-- once with {"skipped": true}. The guard is a transaction-scoped advisory lock
-- taken with pg_try_advisory_xact_lock, so a caller never waits.
--
-- Advisory locks are re-entrant within one session, so the skip path needs a
-- second connection: this file opens one with dblink when the extension is
-- available (and skips that test otherwise); tests/ in Python also cover it.
begin;
select plan(4);

select matches(pg_get_functiondef('jq.jq_maintain()'::regprocedure),
               'if not pg_try_advisory_xact_lock\(hashtext\(''jq\.maintain''\)\) then\s+return jsonb_build_object\(''skipped'', true\)',
               'jq_maintain returns skipped when pg_try_advisory_xact_lock on jq.maintain fails');
select doesnt_match(pg_get_functiondef('jq.jq_maintain()'::regprocedure), 'pg_advisory_(xact_)?lock\(',
                    'it never waits on the lock');

-- Wait until no other session (pg_prove -j) is in jq_maintain, then call it.
select pg_advisory_lock(hashtext('jq.maintain')) as l, pg_advisory_unlock(hashtext('jq.maintain')) as u \gset
select jq.jq_maintain() \gset
select is((select count(*)::int from pg_locks
            where locktype = 'advisory' and pid = pg_backend_pid() and granted
              and ((classid::bigint << 32) | objid::bigint) = hashtext('jq.maintain')::bigint),
          1, 'after a call this transaction holds the jq.maintain advisory lock until it ends');

-- Another session calls jq_maintain while this one holds the lock.
create function pg_temp.maintain_elsewhere() returns jsonb language plpgsql as $$
declare
    v_conn text := format('dbname=%s user=%s port=%s host=%s', current_database(), current_user,
                          current_setting('port'),
                          coalesce(host(inet_server_addr()),
                                   split_part(current_setting('unix_socket_directories'), ',', 1)));
    v_result jsonb;
begin
    execute 'select r from dblink($1, $2) as t(r jsonb)' into v_result using v_conn, 'select jq.jq_maintain()';
    return v_result;
end $$;

select exists (select 1 from pg_available_extensions where name = 'dblink') as have_dblink \gset
\if :have_dblink
    create extension if not exists dblink;
    select is(pg_temp.maintain_elsewhere(), '{"skipped": true}'::jsonb,
              'a second session calling jq_maintain meanwhile is skipped at once');
\else
    select skip('the dblink extension is not installed; tests/ covers concurrent callers', 1);
\endif

select * from finish();
rollback;
