-- No table, partition or sequence in schema jq is granted to jq_producer,
-- jq_worker or PUBLIC: they go through the functions. jq_admin may read
-- every table (and the count of jq.storage_turns) and change only
-- jq.settings. The roles may use the schema but
-- not create in it.
begin;
select plan(8);

select is_empty(
    $$select c.oid::regclass, r.role from pg_class c
       cross join (values ('jq_producer'), ('jq_worker'), ('public')) r(role)
       where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
         and has_table_privilege(r.role, c.oid, 'select, insert, update, delete, truncate, references, trigger')$$,
    'producer, worker and PUBLIC have no privilege on any jq table');
select is_empty(
    $$select c.oid::regclass, r.role from pg_class c
       cross join (values ('jq_producer'), ('jq_worker'), ('public')) r(role)
       where c.relnamespace = 'jq'::regnamespace and c.relkind = 'S'
         and has_sequence_privilege(r.role, c.oid, 'usage, select, update')$$,
    'nor on any sequence');
select is_empty(
    $$select c.oid::regclass from pg_class c
       where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
         and not has_table_privilege('jq_admin', c.oid, 'select')$$,
    'jq_admin may read every jq table');
select is_empty(
    $$select c.oid::regclass from pg_class c
       where c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p')
         and has_table_privilege('jq_admin', c.oid, 'insert, delete, truncate')
          or (c.relnamespace = 'jq'::regnamespace and c.relkind in ('r', 'p') and c.oid <> 'jq.settings'::regclass
              and has_table_privilege('jq_admin', c.oid, 'update'))$$,
    'jq_admin may change only jq.settings, and only by update');
select ok(has_sequence_privilege('jq_admin', 'jq.storage_turns', 'select'),
          'jq_admin may read how many storage slots were ended early');
select ok(not has_sequence_privilege('jq_admin', 'jq.storage_turns', 'usage')
          and not has_sequence_privilege('jq_admin', 'jq.storage_turns', 'update'),
          'but not advance it: only jq_tick does');
select schema_privs_are('jq', 'jq_producer', array['USAGE'], 'jq_producer may use schema jq, not create in it');
select schema_privs_are('jq', 'jq_worker', array['USAGE'], 'jq_worker may use schema jq, not create in it');

select * from finish();
rollback;
