-- jq_enqueue called straight from pgbench (no Python): the cost of the SQL
-- function, its checks and its statement trigger, against insert.sql's plain INSERT.
select job_id, status, duplicate from jq.jq_enqueue('noop', '{"n": 1}'::jsonb, 'bench');
