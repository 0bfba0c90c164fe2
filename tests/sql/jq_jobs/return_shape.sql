-- The contract's arguments and result columns, in order (the dashboard
-- and pyjq.jobs read them by name).
begin;
select plan(2);

select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_jobs(jsonb, integer, text, boolean)'::regprocedure and a.mode = 't'
       order by a.ord$$,
    $$values ('job_id'::text, 'uuid'::text), ('type', 'text'), ('queue', 'text'), ('status', 'text'),
             ('priority', 'integer'), ('tenant', 'text'), ('attempts', 'smallint'), ('max_attempts', 'smallint'),
             ('run_at', 'timestamp with time zone'), ('created_at', 'timestamp with time zone'),
             ('finished_at', 'timestamp with time zone'), ('last_error', 'text'), ('cursor', 'text')$$,
    'jq_jobs returns (job_id, type, queue, status, priority, tenant, attempts, max_attempts, run_at, created_at, finished_at, last_error, cursor)');
select is(pg_get_function_identity_arguments('jq.jq_jobs(jsonb, integer, text, boolean)'::regprocedure),
          'p_filter jsonb, p_limit integer, p_cursor text, p_oldest_first boolean',
          'its arguments: filter, limit, cursor, oldest_first (all with defaults)');

select * from finish();
rollback;
