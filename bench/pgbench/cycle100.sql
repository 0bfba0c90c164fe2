-- The per-job cycle of cycle.sql, 100 jobs at a time, still three transactions:
-- enqueue 100 (one INSERT); claim 100 (FOR UPDATE SKIP LOCKED); delete the 100.
-- One pgbench transaction = 100 jobs. Run with -M prepared (:ids is a parameter).
insert into bench_raw.jobs (id, queue, type, payload, priority, run_at, max_attempts, created_at)
select gen_random_uuid(), 'default', 'noop', jsonb_build_object('n', g), 0, now(), 25, now()
  from generate_series(1, 100) g;
with picked as (
    select id from bench_raw.jobs
     where queue = 'default' and status = 'pending' and run_at <= now()
     order by priority desc, run_at
     limit 100
       for update skip locked
), claimed as (
    update bench_raw.jobs j
       set status = 'processing', locked_by = 'pgbench', locked_until = now() + interval '5 minutes',
           attempts = j.attempts + 1
      from picked where j.id = picked.id
    returning j.id
)
select coalesce(array_agg(id), '{}') as ids from claimed \gset
delete from bench_raw.jobs where id = any(:ids::uuid[]);
