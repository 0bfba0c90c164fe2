-- The contract's return shape: (type, error, count, first_failed_at,
-- last_failed_at) first, in that order; columns may only be added after.
begin;
select plan(1);

select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_dead_groups(timestamptz, text, text)'::regprocedure and a.mode = 't'
       order by a.ord
       limit 5$$,
    $$values ('type'::text, 'text'::text), ('error', 'text'), ('count', 'bigint'),
             ('first_failed_at', 'timestamp with time zone'), ('last_failed_at', 'timestamp with time zone')$$,
    'jq_dead_groups returns the contract columns first, in order, with their types');

select * from finish();
rollback;
