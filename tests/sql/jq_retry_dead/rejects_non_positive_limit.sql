-- A limit of 0 or less is bad input (22023), and nothing is requeued.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'invoice.send', 'dead_q', 1) as id \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'boom') \gset

select throws_ok($$select jq.jq_retry_dead('invoice.send', null, null, 0)$$, '22023', null,
                 'limit 0 raises 22023');
select throws_ok($$select jq.jq_retry_dead(null, null, null, -5)$$, '22023', null,
                 'a negative limit raises 22023');
select is((select count(*)::int from jq.dead_jobs where id = :'id'), 1, 'the dead job is still dead');

select * from finish();
rollback;
