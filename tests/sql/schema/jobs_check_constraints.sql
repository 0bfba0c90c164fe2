-- The named CHECK constraints of jq.jobs exist, and each one stops a direct
-- insert that breaks it with SQLSTATE 23514 and its own name.
begin;
select plan(30);

-- A valid row with one column overridden (p_column => p_value, SQL text).
create function pg_temp.job(p_column text, p_value text) returns text language sql as $$
    select format('insert into jq.jobs (%s) values (%s)', string_agg(c, ', '), string_agg(v, ', '))
      from (select c, case when c = p_column then p_value else v end as v
              from (values ('id', 'gen_random_uuid()'), ('queue', '''q'''), ('type', '''t'''),
                           ('payload', '''{}'''), ('priority', '0'), ('run_at', 'now()'),
                           ('status', '''pending'''), ('locked_until', 'null'), ('locked_by', 'null'),
                           ('attempts', '0'), ('max_attempts', '3'), ('idempotency_key', '''k'''),
                           ('tenant', '''acme'''), ('concurrency_key', 'null'),
                           ('created_at', 'now()'), ('orphaned', '0'), ('metadata', 'null')) d(c, v)) r
$$;

select set_eq(
    $$select conname::text from pg_constraint where conrelid = 'jq.jobs'::regclass and contype = 'c'$$,
    $$values ('jobs_type_length'), ('jobs_queue_format'), ('jobs_idempotency_key_length'), ('jobs_tenant_length'),
             ('jobs_payload_object'), ('jobs_max_attempts_range'), ('jobs_attempts_range'),
             ('jobs_status_valid'), ('jobs_lease_consistent'), ('jobs_concurrency_key_length'),
             ('jobs_orphaned_range'), ('jobs_metadata_object')$$,
    'jq.jobs has exactly these named CHECK constraints');

select lives_ok(pg_temp.job('id', 'gen_random_uuid()'), 'the base row is valid');
select lives_ok(pg_temp.job('type', quote_literal(repeat('t', 128))), 'a type of 128 characters is allowed');
select lives_ok(pg_temp.job('queue', quote_literal('Ab0_.:-' || repeat('q', 57))), 'a queue of 64 allowed characters is allowed');

select is(jq_test.violation(pg_temp.job('type', '''''')), '23514 jobs_type_length', 'an empty type');
select is(jq_test.violation(pg_temp.job('type', quote_literal(repeat('t', 129)))), '23514 jobs_type_length',
          'a type of 129 characters');
select is(jq_test.violation(pg_temp.job('queue', '''''')), '23514 jobs_queue_format', 'an empty queue');
select is(jq_test.violation(pg_temp.job('queue', quote_literal(repeat('q', 65)))), '23514 jobs_queue_format',
          'a queue of 65 characters');
select is(jq_test.violation(pg_temp.job('queue', '''bad queue''')), '23514 jobs_queue_format', 'a queue with a space');
select is(jq_test.violation(pg_temp.job('idempotency_key', '''''')), '23514 jobs_idempotency_key_length',
          'an empty idempotency key');
select is(jq_test.violation(pg_temp.job('idempotency_key', quote_literal(repeat('k', 256)))),
          '23514 jobs_idempotency_key_length', 'an idempotency key of 256 characters');
select is(jq_test.violation(pg_temp.job('tenant', '''''')), '23514 jobs_tenant_length', 'an empty tenant');
select is(jq_test.violation(pg_temp.job('tenant', quote_literal(repeat('x', 129)))), '23514 jobs_tenant_length',
          'a tenant of 129 characters');
select is(jq_test.violation(pg_temp.job('concurrency_key', '''''')), '23514 jobs_concurrency_key_length',
          'an empty concurrency key');
select is(jq_test.violation(pg_temp.job('concurrency_key', quote_literal(repeat('c', 256)))),
          '23514 jobs_concurrency_key_length', 'a concurrency key of 256 characters');
select lives_ok(pg_temp.job('concurrency_key', quote_literal(repeat('c', 255))),
                'a concurrency key of 255 characters is allowed');
select is(jq_test.violation(pg_temp.job('payload', '''[1, 2]''')), '23514 jobs_payload_object', 'an array payload');
select is(jq_test.violation(pg_temp.job('payload', '''"text"''')), '23514 jobs_payload_object', 'a string payload');
select is(jq_test.violation(pg_temp.job('metadata', '''["traceparent"]''')), '23514 jobs_metadata_object',
          'an array as metadata');
select lives_ok(pg_temp.job('metadata', '''{"traceparent": "00-x"}'''), 'an object as metadata');
select is(jq_test.violation(pg_temp.job('max_attempts', '0')), '23514 jobs_max_attempts_range', 'max_attempts 0');
select is(jq_test.violation(pg_temp.job('max_attempts', '1001')), '23514 jobs_max_attempts_range', 'max_attempts 1001');
select is(jq_test.violation(pg_temp.job('attempts', '4')), '23514 jobs_attempts_range', 'attempts above max_attempts');
select is(jq_test.violation(pg_temp.job('attempts', '-1')), '23514 jobs_attempts_range', 'negative attempts');
select is(jq_test.violation(pg_temp.job('orphaned', '-1')), '23514 jobs_orphaned_range', 'negative orphaned');
select is(jq_test.violation(pg_temp.job('status', '''succeeded''')), '23514 jobs_status_valid',
          'a status other than pending or processing');
select is(jq_test.violation(pg_temp.job('status', '''processing''')), '23514 jobs_lease_consistent',
          'processing without a lease');
select is(jq_test.violation($$insert into jq.jobs (id, type, run_at, status, locked_by, locked_until, max_attempts, created_at)
                               values (gen_random_uuid(), 't', now(), 'pending', 'w1', now(), 3, now())$$),
          '23514 jobs_lease_consistent', 'pending with a lease');
select is(jq_test.violation(pg_temp.job('payload', 'null')), '23502 ', 'a null payload is refused (not null)');
select is((select count(*)::int from jq.jobs), 5, 'only the five valid rows went in');

select * from finish();
rollback;
