-- The minimal per-job cycle, three transactions as a durable queue needs them:
-- enqueue; claim one (lease, FOR UPDATE SKIP LOCKED); delete when done.
-- One pgbench transaction = one job. Run with -M prepared (:ids is a parameter).
insert into bench_raw.jobs (id, queue, type, payload, priority, run_at, max_attempts, created_at)
values (gen_random_uuid(), 'default', 'noop', '{"n": 1}', 0, now(), 25, now());
with picked as (
    select id from bench_raw.jobs
     where queue = 'default' and status = 'pending' and run_at <= now()
     order by priority desc, run_at
     limit 1
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
