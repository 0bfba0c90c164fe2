begin;
select plan(8);

select lives_ok($$select jq.jq_set_waiting(array['urgent', 'default'], 'w1', true)$$,
                'a worker marks itself waiting on two queues');
select results_eq($$select queue, worker, backend_pid from jq.queue_waiters order by queue$$,
                  $$values ('default', 'w1', pg_backend_pid()), ('urgent', 'w1', pg_backend_pid())$$,
                  'one mark per queue, with the calling backend');
select lives_ok($$select jq.jq_set_waiting(array['urgent'], 'w1', true)$$,
                'marking again is harmless');
select is((select count(*)::int from jq.queue_waiters), 2, 'no duplicate mark');
select lives_ok($$select jq.jq_set_waiting(array['urgent'], 'w1', false)$$, 'busy on one queue');
select results_eq($$select queue from jq.queue_waiters$$, $$values ('default')$$,
                  'only the busy queue lost its mark');
select throws_ok($$select jq.jq_set_waiting(array['default'], null, true)$$, '22004', null,
                 'a null worker is refused');
select throws_ok($$select jq.jq_set_waiting(null, 'w1', true)$$, '22004', null,
                 'null queues are refused');

select * from finish();
rollback;
