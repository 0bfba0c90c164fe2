-- p_since requeues only jobs that failed at or after it.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') as old \gset
select jq_test.advance('1 hour') as t1 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.advance('1 hour') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_3') \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', :'t1'), 2,
          'the two failures at or after since are requeued');
select results_eq('select id from jq.dead_jobs', format('values (%L::uuid)', :'old'),
                  'the earlier failure stays dead');
select is(jq.jq_retry_dead(p_since => :'t1'::timestamptz + interval '2 hours'), 0, 'a since after every failure requeues nothing');

select * from finish();
rollback;
