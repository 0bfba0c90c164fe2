-- The same error from two job types makes two groups: a group is
-- (type, fingerprint).
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.bury('email.send', 'Timeout after 30s for msg_9') \gset

select results_eq(
    'select type, error, count from jq.jq_dead_groups()',
    $$values ('invoice.send'::text, 'Timeout after 30s for ?'::text, 2::bigint),
             ('email.send', 'Timeout after 30s for ?', 1)$$,
    'one group per type, each with its own count');
select is((select count(distinct error)::int from jq.jq_dead_groups()), 1, 'both groups share the fingerprint');

select * from finish();
rollback;
