-- The raw-SQL baseline's table: jq.jobs' columns, defaults, CHECK constraints
-- and indexes (primary key, the partial claim index, the lease index), with no
-- function, trigger or NOTIFY in front of it. Run after sql/install.sql.
create schema if not exists bench_raw;
drop table if exists bench_raw.jobs;
create table bench_raw.jobs (like jq.jobs including defaults including constraints including indexes);
alter table bench_raw.jobs set (fillfactor = 80, autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 2000, autovacuum_vacuum_insert_scale_factor = 0,
    autovacuum_vacuum_insert_threshold = 5000, autovacuum_vacuum_cost_delay = 0);
