-- Filters that match no dead job requeue nothing and return 0.
begin;
select plan(4);

select is(jq.jq_retry_dead(), 0, 'with no dead jobs at all: 0');

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'invoice.send', 'dead_q', 1) as id \gset
select count(*) from jq.jq_fail(:'id', 'w1', 'Timeout after 30s for inv_1') \gset

select is(jq.jq_retry_dead('email.send', 'Timeout after 30s for inv_1'), 0, 'another type: 0');
select is(jq.jq_retry_dead('invoice.send', 'HTTP 503 from upstream'), 0, 'another error: 0');
select is((select count(*)::int from jq.dead_jobs), 1, 'the dead job is still dead');

select * from finish();
rollback;
