-- A queue shows up while it has live or dead jobs (or is paused, see
-- shows_paused.sql); once its last job has
-- finished it has no row.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'a', 'stats_empty') as id \gset

select results_eq(
    $$select ready, scheduled, running, dead from jq.jq_stats() where queue = 'stats_empty'$$,
    $$values (0::bigint, 0::bigint, 1::bigint, 0::bigint)$$,
    'a running job gives its queue a row');
select count(*) from jq.jq_complete(array[:'id'::uuid], 'w1') \gset
select is_empty($$select * from jq.jq_stats() where queue = 'stats_empty'$$,
                'after it succeeded the queue has no row');
select is_empty($$select * from jq.jq_stats() where queue is null or ready < 0 or scheduled < 0 or running < 0 or dead < 0$$,
                'no row without a queue name, no negative count');

select * from finish();
rollback;
