-- p_type narrows the groups to one job type; null means every type.
begin;
select plan(3);

create function pg_temp.bury(p_type text, p_error text) returns uuid language plpgsql as $$
declare v_id uuid := jq_test.enqueue_and_claim('w1', p_type, 'dead_q', 1);
begin
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end $$;

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select pg_temp.bury('email.send', 'SMTP 550 mailbox unavailable') \gset
select pg_temp.bury('email.send', 'SMTP 421 try again later') \gset

select results_eq(
    $$select type, error, count from jq.jq_dead_groups(p_type => 'email.send') order by error$$,
    $$values ('email.send'::text, 'SMTP 421 try again later'::text, 1::bigint),
             ('email.send', 'SMTP 550 mailbox unavailable', 1)$$,
    'only the groups of the given type');
select is_empty($$select * from jq.jq_dead_groups(null, 'no.such.type')$$, 'a type with no dead jobs has no group');
select is((select count(*)::int from jq.jq_dead_groups(null, null)), 3, 'null type means every type');

select * from finish();
rollback;
