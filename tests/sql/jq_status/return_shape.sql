-- The contract's return shape: (job_id, type, queue, status, attempts,
-- max_attempts, run_at, next_attempt_at, last_error, created_at, finished_at)
-- in that order; columns may only be added after these. result (jsonb,
-- release 0.5.0) is the last.
begin;
select plan(3);

select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_status(uuid)'::regprocedure and a.mode = 't'
       order by a.ord
       limit 11$$,
    $$values ('job_id'::text, 'uuid'::text), ('type', 'text'), ('queue', 'text'), ('status', 'text'),
             ('attempts', 'smallint'), ('max_attempts', 'smallint'),
             ('run_at', 'timestamp with time zone'), ('next_attempt_at', 'timestamp with time zone'),
             ('last_error', 'text'), ('created_at', 'timestamp with time zone'),
             ('finished_at', 'timestamp with time zone')$$,
    'jq_status returns the contract columns first, in order, with their types');
select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_status(uuid)'::regprocedure and a.mode = 't'
       order by a.ord desc
       limit 1$$,
    $$values ('result'::text, 'jsonb'::text)$$,
    'the last column is result, jsonb');
select is((select proretset from pg_proc where oid = 'jq.jq_status(uuid)'::regprocedure), true,
          'jq_status returns a set (no row for an unknown id)');

select * from finish();
rollback;
