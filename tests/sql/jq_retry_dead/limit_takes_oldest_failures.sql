-- p_limit caps the number requeued, oldest failures first, so a large group
-- can be fed back in batches.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') as first \gset
select jq_test.advance('1 minute') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') as second \gset
select jq_test.advance('1 minute') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_3') as third \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', null, 2), 2, 'limit 2 requeues two');
select set_eq('select id from jq.jobs', format('values (%L::uuid), (%L::uuid)', :'first', :'second'),
              'the two oldest failures');
select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', null, 100), 1,
          'a limit above what is left requeues what is left');
select is((select count(*)::int from jq.dead_jobs), 0, 'the group is empty');

select * from finish();
rollback;
