-- Claimers never wait for each other over caps: a claimer that finds
-- another session settling the same capped tenant or the same concurrency
-- key right now (holding its advisory lock) skips that tenant or key this
-- time and serves the rest; the skipped jobs stay pending for the next claim.
-- The other session, opened with dblink, holds the advisory locks jq_claim
-- takes for them ('jq.tenant:<queue>' / tenant, 'jq.key:<type>' / key).
-- Skipped when dblink is not installed; tests/ in Python cover concurrent
-- claimers.
begin;
select plan(5);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_tenant_policy_set('nowait_q', 'A', null, 5) \gset
select cardinality(jq_test.enqueue_tenant('A', 3, 'nowait_q')) \gset
select cardinality(jq_test.enqueue_tenant('B', 3, 'nowait_q')) \gset
select cardinality(jq_test.enqueue_tenant('C', 2, 'nowait_q', 0, 'ccw.sync', 'acct-1')) \gset

select exists (select 1 from pg_available_extensions where name = 'dblink') as have_dblink \gset
\if :have_dblink
    create extension if not exists dblink;
    select dblink_connect('jq_other', format('dbname=%s user=%s port=%s host=%s', current_database(), current_user,
                          current_setting('port'),
                          coalesce(host(inet_server_addr()),
                                   split_part(current_setting('unix_socket_directories'), ',', 1)))) \gset
    select * from dblink('jq_other', format($q$select pg_advisory_lock(hashtext(%L), hashtext('A'))::text,
                                                     pg_advisory_lock(hashtext('jq.key:ccw.sync'), hashtext('acct-1'))::text$q$,
                                            'jq.tenant:nowait_q')) as t(a text, b text) \gset
    set local lock_timeout = '2s';
    create temp table claimed as select * from jq.jq_claim('nowait_q', 'w1', 10);
    select results_eq($$select tenant, count(*)::int from claimed group by 1 order by 1$$,
                      $$values ('B'::text, 3)$$,
                      'while another session holds A''s cap and the sync/acct-1 key: B''s 3 jobs, at once');
    select is((select count(*)::int from jq.jobs where queue = 'nowait_q' and tenant in ('A', 'C') and status = 'pending'), 5,
              'A''s and C''s jobs stay pending');
    select * from dblink('jq_other', 'select pg_advisory_unlock_all()::text') as t(r text) \gset
    select results_eq($$select tenant, count(*)::int from jq.jq_claim('nowait_q', 'w1', 10) group by 1 order by 1$$,
                      $$values ('A'::text, 3), ('C', 1)$$, 'once it let go: A''s 3 jobs and one of C''s (key cap 1)');
    select dblink_disconnect('jq_other') \gset
    select is((select count(*)::int from jq.jobs where queue = 'nowait_q' and status = 'processing'), 7, '7 jobs run');
    select is((select count(*)::int from jq.jobs where queue = 'nowait_q' and status = 'pending'), 1,
              'C''s second job waits for its key');
\else
    select skip('the dblink extension is not installed; tests/ covers concurrent claimers', 5);
\endif

select * from finish();
rollback;
