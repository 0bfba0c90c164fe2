-- first_failed_at and last_failed_at are the earliest and latest failure of a
-- group, whatever order the jobs died in.
begin;
select plan(1);

create function pg_temp.bury(p_type text, p_error text) returns uuid language plpgsql as $$
declare v_id uuid := jq_test.enqueue_and_claim('w1', p_type, 'dead_q', 1);
begin
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end $$;

select jq_test.set_now('2030-01-15 09:00Z') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.set_now('2030-01-15 07:00Z') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.set_now('2030-01-15 08:00Z') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_3') \gset

select results_eq(
    'select count, first_failed_at, last_failed_at from jq.jq_dead_groups()',
    $$values (3::bigint, '2030-01-15 07:00Z'::timestamptz, '2030-01-15 09:00Z'::timestamptz)$$,
    'first is the earliest failure, last the latest');

select * from finish();
rollback;
