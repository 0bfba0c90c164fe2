-- The same error from two job types makes two groups: a group is
-- (type, fingerprint).
begin;
select plan(2);

create function pg_temp.bury(p_type text, p_error text) returns uuid language plpgsql as $$
declare v_id uuid := jq_test.enqueue_and_claim('w1', p_type, 'dead_q', 1);
begin
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end $$;

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select pg_temp.bury('email.send', 'Timeout after 30s for msg_9') \gset

select results_eq(
    'select type, error, count from jq.jq_dead_groups()',
    $$values ('invoice.send'::text, 'Timeout after 30s for ?'::text, 2::bigint),
             ('email.send', 'Timeout after 30s for ?', 1)$$,
    'one group per type, each with its own count');
select is((select count(distinct error)::int from jq.jq_dead_groups()), 1, 'both groups share the fingerprint');

select * from finish();
rollback;
