-- The rows jq_enqueue_many(1,000 jobs) writes, as one plain INSERT ... SELECT
-- from the same JSON array (no validation, no function). One pgbench transaction = 1,000 jobs.
insert into bench_raw.jobs (id, queue, type, payload, priority, run_at, max_attempts, created_at)
select gen_random_uuid(), e ->> 'queue', e ->> 'type', e -> 'payload', 0, now(), 25, now()
  from jsonb_array_elements((
    select jsonb_agg(jsonb_build_object('type', 'noop', 'queue', 'bench', 'payload', jsonb_build_object('n', g)))
      from generate_series(1, 1000) g)) e;
