-- Every public jq_* function is SECURITY DEFINER with the fixed search_path
-- jq, pg_catalog, pg_temp, so callers need no table privileges and cannot
-- redirect it with their own search_path.
begin;
select plan(3);

select cmp_ok((select count(*)::int from pg_proc where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'),
              '>=', 14, 'there are public jq_* functions to check');
select is_empty(
    $$select oid::regprocedure from pg_proc
       where pronamespace = 'jq'::regnamespace and proname like 'jq\_%' and not prosecdef$$,
    'every jq_* function is SECURITY DEFINER');
select is_empty(
    $$select oid::regprocedure from pg_proc
       where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'
         and not coalesce('search_path=jq, pg_catalog, pg_temp' = any(proconfig), false)$$,
    'every jq_* function sets search_path = jq, pg_catalog, pg_temp');

select * from finish();
rollback;
