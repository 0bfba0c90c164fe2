-- jq_enqueue_many of 1,000 jobs called straight from pgbench (no Python); the
-- JSON array is built in the server. One pgbench transaction = 1,000 jobs.
select count(*) from jq.jq_enqueue_many((
    select jsonb_agg(jsonb_build_object('type', 'noop', 'queue', 'bench', 'payload', jsonb_build_object('n', g)))
      from generate_series(1, 1000) g));
