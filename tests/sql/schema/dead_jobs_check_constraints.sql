-- jq.dead_jobs carries the same bounds as jq.jobs, named dead_jobs_*.
begin;
select plan(9);

create function pg_temp.dead(p_column text, p_value text) returns text language sql as $$
    select format('insert into jq.dead_jobs (%s) values (%s)', string_agg(c, ', '), string_agg(v, ', '))
      from (select c, case when c = p_column then p_value else v end as v
              from (values ('id', 'gen_random_uuid()'), ('queue', '''q'''), ('type', '''t'''),
                           ('payload', '''{}'''), ('priority', '0'), ('run_at', 'now()'), ('attempts', '3'),
                           ('max_attempts', '3'), ('idempotency_key', '''k'''), ('tenant', '''acme'''),
                           ('concurrency_key', '''acct-1'''), ('last_error', '''boom'''), ('error_fingerprint', '''boom'''),
                           ('created_at', 'now()'), ('failed_at', 'now()')) d(c, v)) r
$$;

select set_eq(
    $$select conname::text from pg_constraint where conrelid = 'jq.dead_jobs'::regclass and contype = 'c'$$,
    $$values ('dead_jobs_type_length'), ('dead_jobs_queue_format'), ('dead_jobs_idempotency_key_length'),
             ('dead_jobs_tenant_length'), ('dead_jobs_payload_object'), ('dead_jobs_max_attempts_range'),
             ('dead_jobs_concurrency_key_length')$$,
    'jq.dead_jobs has exactly these named CHECK constraints');
select is(jq_test.violation(pg_temp.dead('type', '''''')), '23514 dead_jobs_type_length', 'an empty type');
select is(jq_test.violation(pg_temp.dead('queue', '''bad queue''')), '23514 dead_jobs_queue_format', 'a bad queue');
select is(jq_test.violation(pg_temp.dead('idempotency_key', quote_literal(repeat('k', 256)))),
          '23514 dead_jobs_idempotency_key_length', 'a long idempotency key');
select is(jq_test.violation(pg_temp.dead('tenant', '''''')), '23514 dead_jobs_tenant_length', 'an empty tenant');
select is(jq_test.violation(pg_temp.dead('concurrency_key', '''''')), '23514 dead_jobs_concurrency_key_length',
          'an empty concurrency key');
select is(jq_test.violation(pg_temp.dead('concurrency_key', quote_literal(repeat('c', 256)))),
          '23514 dead_jobs_concurrency_key_length', 'a long concurrency key');
select is(jq_test.violation(pg_temp.dead('payload', '''[]''')), '23514 dead_jobs_payload_object', 'an array payload');
select is(jq_test.violation(pg_temp.dead('max_attempts', '0')), '23514 dead_jobs_max_attempts_range', 'max_attempts 0');

select * from finish();
rollback;
