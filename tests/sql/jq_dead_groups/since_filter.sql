-- p_since keeps the jobs that failed at or after it; the group's count and
-- first/last_failed_at cover only those.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.advance('1 hour') as t1 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.bury('email.send', 'SMTP 550 mailbox unavailable') \gset
select jq_test.advance('1 hour') as t2 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_3') \gset

select results_eq(
    format('select type, error, count, first_failed_at, last_failed_at from jq.jq_dead_groups(%L)', :'t1'),
    format('values (%L::text, %L::text, 2::bigint, %L::timestamptz, %L::timestamptz), (%L, %L, 1, %L, %L)',
           'invoice.send', 'Timeout after 30s for ?', :'t1', :'t2',
           'email.send', 'SMTP 550 mailbox unavailable', :'t1', :'t1'),
    'since is inclusive: the failure at t0 is left out, those at t1 and t2 counted');
select results_eq(
    format('select type, count from jq.jq_dead_groups(%L, %L)', :'t1', 'invoice.send'),
    $$values ('invoice.send'::text, 2::bigint)$$,
    'since and type combine');
select is_empty(format('select * from jq.jq_dead_groups(%L)', :'t2'::timestamptz + interval '1 second'),
                'nothing failed after the last failure');
select is((select count from jq.jq_dead_groups() where type = 'invoice.send'), 3::bigint, 'without since every failure counts');

select * from finish();
rollback;
