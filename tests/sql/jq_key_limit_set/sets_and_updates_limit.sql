-- jq_key_limit_set(type, max_running) stores how many jobs of the type that
-- share one concurrency_key may run at once, returns the row, and replaces
-- it when called again for the same type.
begin;
select plan(6);

select results_eq($$select * from jq.jq_key_limit_set('sync', 3)$$, $$values ('sync'::text, 3)$$, 'returns the row it stored');
select results_eq('select type, max_running, updated_at from jq.key_limits',
                  $$values ('sync'::text, 3, now())$$, 'jq.key_limits holds it, updated_at the time of the call');
select results_eq($$select * from jq.jq_key_limit_set('sync', 1)$$, $$values ('sync'::text, 1)$$, 'called again: replaced');
select is((select count(*)::int from jq.key_limits), 1, 'still one row for sync');
select results_eq($$select * from jq.jq_key_limit_set(repeat('t', 128), 1000000)$$,
                  format('values (%L::text, 1000000)', repeat('t', 128)),
                  'a type of 128 characters and max_running 1000000 are accepted');
select is((select count(*)::int from jq.key_limits), 2, 'one row per type');

select * from finish();
rollback;
