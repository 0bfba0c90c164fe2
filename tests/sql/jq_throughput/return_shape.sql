-- The contract's return shape: (bucket_start timestamptz, succeeded, cancelled,
-- dead, failed_attempts bigint), in that order; admin only.
begin;
select plan(2);

select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_throughput(timestamptz, interval)'::regprocedure and a.mode = 't'
       order by a.ord$$,
    $$values ('bucket_start'::text, 'timestamp with time zone'::text), ('succeeded', 'bigint'),
             ('cancelled', 'bigint'), ('dead', 'bigint'), ('failed_attempts', 'bigint')$$,
    'jq_throughput returns the contract columns in order, with their types');
select ok(not has_function_privilege('jq_worker', 'jq.jq_throughput(timestamptz, interval)', 'execute')
          and has_function_privilege('jq_admin', 'jq.jq_throughput(timestamptz, interval)', 'execute'),
          'admin may call it, a worker may not');

select * from finish();
rollback;
