-- p_type narrows the groups to one job type; null means every type.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.bury('email.send', 'SMTP 550 mailbox unavailable') \gset
select jq_test.bury('email.send', 'SMTP 421 try again later') \gset

select results_eq(
    $$select type, error, count from jq.jq_dead_groups(p_type => 'email.send') order by error$$,
    $$values ('email.send'::text, 'SMTP 421 try again later'::text, 1::bigint),
             ('email.send', 'SMTP 550 mailbox unavailable', 1)$$,
    'only the groups of the given type');
select is_empty($$select * from jq.jq_dead_groups(null, 'no.such.type')$$, 'a type with no dead jobs has no group');
select is((select count(*)::int from jq.jq_dead_groups(null, null)), 3, 'null type means every type');

select * from finish();
rollback;
