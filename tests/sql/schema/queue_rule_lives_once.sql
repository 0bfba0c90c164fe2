-- The queue-name rule is written once, in jq._is_queue_name: every
-- *_queue_format constraint calls it, and no other constraint or function
-- of schema jq spells the rule out.
begin;
select plan(4);

select set_eq(
    $$select conrelid::regclass::text || '.' || conname from pg_constraint
       where connamespace = 'jq'::regnamespace and conname like '%\_queue\_format'
         and conislocal$$,  -- the partitions of jq.jobs inherit jobs_queue_format
    $$values ('jq.jobs.jobs_queue_format'), ('jq.dead_jobs.dead_jobs_queue_format'),
             ('jq.schedules.schedules_queue_format'), ('jq.tenant_policies.tenant_policies_queue_format'),
             ('jq.queue_settings.queue_settings_queue_format'),
             ('jq.queue_pauses.queue_pauses_queue_format')$$,
    'six tables have a queue_format constraint');
select is_empty(
    $$select conname from pg_constraint
       where connamespace = 'jq'::regnamespace and conname like '%\_queue\_format'
         and pg_get_constraintdef(oid) not like '%jq._is_queue_name(queue)%'$$,
    'each one calls jq._is_queue_name');
select is_empty(
    $$select oid::regprocedure::text from pg_proc
       where pronamespace = 'jq'::regnamespace and proname <> '_is_queue_name'
         and prosrc like '%A-Za-z0-9\_.:-%'
      union all
      select conname from pg_constraint
       where connamespace = 'jq'::regnamespace and pg_get_constraintdef(oid) like '%A-Za-z0-9\_.:-%'$$,
    'no other function or constraint spells the rule out');
select results_eq(
    $$select jq._is_queue_name(q) from unnest(array['default', 'Ab0_.:-', repeat('q', 64), '', repeat('q', 65),
                                                    'bad queue', 'é', null]) q$$,
    $$values (true), (true), (true), (false), (false), (false), (false), (null::boolean)$$,
    'the rule: 1 to 64 letters, digits and _ . : -');

select * from finish();
rollback;
