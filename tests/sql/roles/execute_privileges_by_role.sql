-- Who may call which public function. jq_producer: enqueue, status, cancel,
-- version, limits. jq_worker: claim, complete, fail, heartbeat, release, set_waiting,
-- worker_register, worker_beat, worker_deregister, maintain, stats, unhandled_types, status, version,
-- schedules_fire_due (and schedules_due, schedules_fire), limits. jq_admin: everything, including managing
-- schedules (and previewing a cron's slots) and the fairness policies (tenant policies, key limits,
-- fair/plain queues, jq_tenants). A new jq_ function makes this test fail until its grants are decided here.
begin;
select plan(4);

create temp table expected (fn text, role text);
insert into expected
select fn, unnest(roles) from (values
    ('jq_enqueue',      array['jq_producer', 'jq_admin']),
    ('jq_enqueue_many', array['jq_producer', 'jq_admin']),
    ('jq_status',       array['jq_producer', 'jq_worker', 'jq_admin']),
    ('jq_cancel',       array['jq_producer', 'jq_admin']),
    ('jq_version',      array['jq_producer', 'jq_worker', 'jq_admin']),
    ('jq_claim',        array['jq_worker', 'jq_admin']),
    ('jq_complete',     array['jq_worker', 'jq_admin']),
    ('jq_fail',         array['jq_worker', 'jq_admin']),
    ('jq_heartbeat',    array['jq_worker', 'jq_admin']),
    ('jq_release',      array['jq_worker', 'jq_admin']),
    ('jq_set_waiting',  array['jq_worker', 'jq_admin']),
    ('jq_worker_register',   array['jq_worker', 'jq_admin']),
    ('jq_worker_beat',       array['jq_worker', 'jq_admin']),
    ('jq_worker_deregister', array['jq_worker', 'jq_admin']),
    ('jq_workers',           array['jq_admin']),
    ('jq_unhandled_types',   array['jq_worker', 'jq_admin']),
    ('jq_tick',              array['jq_worker', 'jq_admin']),
    ('jq_storage',           array['jq_worker', 'jq_admin']),
    ('jq_maintain',     array['jq_worker', 'jq_admin']),
    ('jq_stats',        array['jq_worker', 'jq_admin']),
    ('jq_dead_groups',  array['jq_admin']),
    ('jq_retry_dead',   array['jq_admin']),
    ('jq_schedule_put',    array['jq_admin']),
    ('jq_schedule_delete', array['jq_admin']),
    ('jq_schedule_pause',  array['jq_admin']),
    ('jq_schedule_resume', array['jq_admin']),
    ('jq_schedules',       array['jq_admin']),
    ('jq_schedules_due',   array['jq_worker', 'jq_admin']),
    ('jq_schedules_fire',  array['jq_worker', 'jq_admin']),
    ('jq_schedules_fire_due', array['jq_worker', 'jq_admin']),
    ('jq_cron_slots',      array['jq_admin']),
    ('jq_tenant_policy_set',    array['jq_admin']),
    ('jq_tenant_policy_delete', array['jq_admin']),
    ('jq_tenant_policies',      array['jq_admin']),
    ('jq_key_limit_set',        array['jq_admin']),
    ('jq_key_limit_delete',     array['jq_admin']),
    ('jq_queue_set_fair',       array['jq_admin']),
    ('jq_tenants',              array['jq_admin']),
    ('jq_jobs',                 array['jq_admin']),
    ('jq_jobs_retry',           array['jq_admin']),
    ('jq_jobs_cancel',          array['jq_admin']),
    ('jq_jobs_discard',         array['jq_admin']),
    ('jq_dead_delete',          array['jq_admin']),
    ('jq_dead_requeue',         array['jq_admin']),
    ('jq_queue_pause',          array['jq_admin']),
    ('jq_queue_resume',         array['jq_admin']),
    ('jq_queue_pauses',         array['jq_admin']),
    ('jq_audit_log',            array['jq_admin']),
    ('jq_job_attempts',         array['jq_worker', 'jq_admin']),
    ('jq_limits',               array['jq_producer', 'jq_worker', 'jq_admin']),
    ('jq_throughput',           array['jq_admin']),
    ('jq_job_detail',           array['jq_admin']),
    ('jq_dead_discard_group',   array['jq_admin'])) v(fn, roles);

select set_eq(
    $$select p.proname::text, r.role
        from pg_proc p
       cross join (values ('jq_producer'), ('jq_worker'), ('jq_admin')) r(role)
       where p.pronamespace = 'jq'::regnamespace and p.proname like 'jq\_%'
         and has_function_privilege(r.role, p.oid, 'execute')$$,
    'select fn, role from expected',
    'each role may execute exactly its public functions');
select set_eq(
    $$select proname::text from pg_proc where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'$$,
    'select distinct fn from expected',
    'every public function is listed here');
select is_empty(
    $$select p.oid::regprocedure from pg_proc p
       where p.pronamespace = 'jq'::regnamespace
         and (has_function_privilege('jq_producer', p.oid, 'execute')
              or has_function_privilege('jq_worker', p.oid, 'execute'))
         and p.proname not like 'jq\_%'$$,
    'producer and worker may not call the internal helpers directly');
select is_empty(
    $$select p.oid::regprocedure from pg_proc p
       where p.pronamespace = 'jq'::regnamespace and has_function_privilege('public', p.oid, 'execute')$$,
    'PUBLIC may execute no function in schema jq');

select * from finish();
rollback;
