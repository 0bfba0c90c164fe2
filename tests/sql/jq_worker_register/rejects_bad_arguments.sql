-- jq_worker_register refuses a missing name, queues that are not an object
-- of queue name -> positive whole slots, and an over-long host.
begin;
select plan(6);

select throws_ok($$select * from jq.jq_worker_register(null, '{"q": 1}')$$, '22004', null, 'a null worker');
select throws_ok($$select * from jq.jq_worker_register('w', null)$$, '22004', null, 'null queues');
select throws_ok($$select * from jq.jq_worker_register('w', '[1]')$$, '22023', null, 'queues not an object');
select throws_ok($$select * from jq.jq_worker_register('w', '{"q": 0}')$$, '22023', null, 'zero slots');
select throws_ok($$select * from jq.jq_worker_register('w', '{"bad queue!": 2}')$$, '22023', null,
                 'a queue name that is not one');
select throws_ok(format('select * from jq.jq_worker_register(%L, %L, %L)', 'w', '{"q": 1}', repeat('h', 256)),
                 '22001', null, 'a host longer than 255 characters');

select * from finish();
rollback;
