-- A page is read along the (created_at, id) index of each source (migration
-- 8; per tenant, (tenant, created_at, id)), never by a sequential scan: with sequential scans priced out, listing
-- pages of every kind scans no table of jq.jobs, jq.dead_jobs or any
-- jq.job_history partition sequentially (pg_stat_xact_user_tables counts
-- this transaction's scans). A time window on history skips the day
-- partitions outside it.
begin;
select plan(8);

select has_index('jq', 'jobs', 'jobs_created_idx', array['created_at', 'id'], 'jobs_created_idx: (created_at, id)');
select has_index('jq', 'dead_jobs', 'dead_jobs_created_idx', array['created_at', 'id'], 'dead_jobs_created_idx: (created_at, id)');
select has_index('jq', 'job_history', 'job_history_created_idx', array['created_at', 'id'],
                 'job_history_created_idx: (created_at, id), on every day partition');
select is(pg_get_indexdef('jq.jobs_tenant_created_idx'::regclass),
          'CREATE INDEX jobs_tenant_created_idx ON ONLY jq.jobs USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL)',
          'jobs_tenant_created_idx: (tenant, created_at, id), jobs with a tenant (one of thousands) only');
select is(pg_get_indexdef('jq.job_history_tenant_created_idx'::regclass),
          'CREATE INDEX job_history_tenant_created_idx ON ONLY jq.job_history USING btree (tenant, created_at, id) WHERE (tenant IS NOT NULL)',
          'job_history_tenant_created_idx: the same on every history partition');
select is(pg_get_indexdef('jq.dead_jobs_payload_idx'::regclass),
          'CREATE INDEX dead_jobs_payload_idx ON jq.dead_jobs USING gin (payload jsonb_path_ops)',
          'dead_jobs_payload_idx: payload containment on dead jobs (GIN)');

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(*) from jq.jq_maintain() \gset
select jq_test.enqueue_and_claim('w1', 'idx.a', 'idx_q') as done \gset
select count(*) from jq.jq_complete(array[:'done'::uuid], 'w1') \gset
select jq_test.bury('idx.b', 'boom', 'idx_q') \gset

create temp table scans_before as
select relname, seq_scan from pg_stat_xact_user_tables where schemaname = 'jq';
set local enable_seqscan = off;
select count(*) from jq.jq_jobs() \gset
select count(*) from jq.jq_jobs('{"type": "idx.a"}') \gset
select count(*) from jq.jq_jobs('{"status": ["succeeded"], "tenant": "t"}') \gset
select count(*) from jq.jq_jobs('{"tenant": "t", "status": ["dead", "queued"]}') \gset
select count(*) from jq.jq_jobs('{"status": "dead", "payload": {"a": 1}}') \gset
select count(*) from (select * from jq.jq_jobs('{}', 1) l) x,
       lateral jq.jq_jobs('{}', 10, x.cursor, true) \gset
select count(*) from jq.jq_jobs('{"finished_after": "2030-01-15T00:00:00Z", "finished_before": "2030-01-16T00:00:00Z"}') \gset
select is_empty(
    $$select s.relname from pg_stat_xact_user_tables s left join scans_before b using (relname)
       where s.schemaname = 'jq' and (s.relname in ('jobs', 'dead_jobs') or s.relname like 'job\_history%')
         and s.seq_scan > coalesce(b.seq_scan, 0)$$,
    'no source table or history partition was scanned sequentially');
reset enable_seqscan;

create temp table history_plan (plan text);
do $$
declare v_plan json;
begin
    execute $q$explain (format json) select x.id from jq.job_history x
        where x.finished_at >= '2030-01-15T00:00:00Z'::timestamptz and x.finished_at < '2030-01-16T00:00:00Z'::timestamptz
        order by x.created_at desc, x.id desc limit 50$q$ into v_plan;
    insert into history_plan values (v_plan::text);
end $$;
select ok((select plan ~ 'job_history_p20300115' and plan !~ 'job_history_p20300116' and plan !~ 'job_history_default'
             from history_plan),
          'a finished window reads only the partitions of its days');

select * from finish();
rollback;
