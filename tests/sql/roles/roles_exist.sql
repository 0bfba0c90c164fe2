-- Install creates the three group roles, without login and without any
-- special attribute; an application role is granted one of them.
begin;
select plan(4);

select has_role('jq_producer', 'role jq_producer exists');
select has_role('jq_worker', 'role jq_worker exists');
select has_role('jq_admin', 'role jq_admin exists');
select is_empty(
    $$select rolname from pg_roles
       where rolname in ('jq_producer', 'jq_worker', 'jq_admin')
         and (rolcanlogin or rolsuper or rolcreaterole or rolcreatedb or rolbypassrls or rolreplication)$$,
    'none of them can log in or has a special attribute');

select * from finish();
rollback;
