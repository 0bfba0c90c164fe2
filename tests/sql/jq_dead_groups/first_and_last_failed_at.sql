-- first_failed_at and last_failed_at are the earliest and latest failure of a
-- group, whatever order the jobs died in.
begin;
select plan(1);

select jq_test.set_now('2030-01-15 09:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.set_now('2030-01-15 07:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_3') \gset

select results_eq(
    'select count, first_failed_at, last_failed_at from jq.jq_dead_groups()',
    $$values (3::bigint, '2030-01-15 07:00Z'::timestamptz, '2030-01-15 09:00Z'::timestamptz)$$,
    'first is the earliest failure, last the latest');

select * from finish();
rollback;
