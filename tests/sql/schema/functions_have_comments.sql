-- Every public jq_* function, and the two replaceable policy functions, has
-- a COMMENT ON FUNCTION: a new function without one fails here.
begin;
select plan(3);

select cmp_ok((select count(*)::int from pg_proc where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'),
              '>=', 14, 'there are public jq_* functions to check');
select is_empty(
    $$select oid::regprocedure from pg_proc
       where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'
         and coalesce(btrim(obj_description(oid, 'pg_proc')), '') = ''$$,
    'every jq_* function has a comment');
select is_empty(
    $$select oid::regprocedure from pg_proc
       where oid in ('jq.retry_delay(integer)'::regprocedure, 'jq.error_fingerprint(text)'::regprocedure)
         and coalesce(btrim(obj_description(oid, 'pg_proc')), '') = ''$$,
    'retry_delay and error_fingerprint have comments');

select * from finish();
rollback;
