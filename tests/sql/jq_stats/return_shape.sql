-- The contract's return shape: (queue, ready, scheduled, running,
-- oldest_ready_age interval, dead, paused boolean), in that order.
begin;
select plan(1);

select results_eq(
    $$select a.name collate "default", format_type(a.type, null)
        from pg_proc p
       cross join lateral unnest(p.proargnames, p.proallargtypes, p.proargmodes)
                          with ordinality as a(name, type, mode, ord)
       where p.oid = 'jq.jq_stats()'::regprocedure and a.mode = 't'
       order by a.ord
       limit 7$$,
    $$values ('queue'::text, 'text'::text), ('ready', 'bigint'), ('scheduled', 'bigint'), ('running', 'bigint'),
             ('oldest_ready_age', 'interval'), ('dead', 'bigint'), ('paused', 'boolean')$$,
    'jq_stats returns the contract columns first, in order, with their types');

select * from finish();
rollback;
