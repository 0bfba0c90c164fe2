-- One job, one transaction: the row jq_enqueue writes, as a plain INSERT.
insert into bench_raw.jobs (id, queue, type, payload, priority, run_at, max_attempts, created_at)
values (gen_random_uuid(), 'default', 'noop', '{"n": 1}', 0, now(), 25, now());
