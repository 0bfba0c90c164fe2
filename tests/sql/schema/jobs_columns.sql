-- jq.jobs follows the data model of docs/design.md ("Tables, and why each exists").
begin;
select plan(17);

select columns_are('jq', 'jobs', array[
    'id', 'queue', 'type', 'payload', 'priority', 'run_at', 'status', 'locked_until', 'locked_by',
    'attempts', 'max_attempts', 'idempotency_key', 'tenant', 'last_error', 'created_at', 'cancel_requested',
    'concurrency_key', 'deferred', 'orphaned', 'attempt_log', 'metadata', 'generation'],
    'jq.jobs has exactly the data model''s columns');
select col_is_pk('jq', 'jobs', array['id', 'generation'],
                 'the primary key is (id, generation): a key of a partitioned table holds its partition key');
select col_type_is('jq', 'jobs', 'id', 'uuid', 'id is a uuid');
select col_type_is('jq', 'jobs', 'payload', 'jsonb', 'payload is jsonb');
select col_type_is('jq', 'jobs', 'priority', 'smallint', 'priority is a smallint');
select col_type_is('jq', 'jobs', 'run_at', 'timestamp with time zone', 'run_at is a timestamptz');
select col_type_is('jq', 'jobs', 'attempts', 'smallint', 'attempts is a smallint');
select col_type_is('jq', 'jobs', 'cancel_requested', 'boolean', 'cancel_requested is a boolean');
select col_default_is('jq', 'jobs', 'queue', 'default'::text, 'queue defaults to default');
select col_type_is('jq', 'jobs', 'concurrency_key', 'text', 'concurrency_key is text');
select col_type_is('jq', 'jobs', 'deferred', 'boolean', 'deferred is a boolean');
select col_default_is('jq', 'jobs', 'deferred', 'false', 'deferred defaults to false');
select col_type_is('jq', 'jobs', 'orphaned', 'smallint', 'orphaned is a smallint');
select col_default_is('jq', 'jobs', 'orphaned', '0', 'orphaned defaults to 0');
select col_type_is('jq', 'jobs', 'metadata', 'jsonb', 'metadata is jsonb');
select col_hasnt_default('jq', 'jobs', 'metadata', 'metadata has no default: null unless given');
select is_empty(
    $$select attname from pg_attribute
       where attrelid = 'jq.jobs'::regclass and attnum > 0 and not attisdropped and not attnotnull
         and attname not in ('locked_until', 'locked_by', 'idempotency_key', 'tenant', 'last_error',
                             'concurrency_key', 'attempt_log', 'metadata')$$,
    'only the lease, key, tenant, error, concurrency_key, attempt_log and metadata columns may be null');

select * from finish();
rollback;
