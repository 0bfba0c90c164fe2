-- p_limit caps the number requeued, oldest failures first, so a large group
-- can be fed back in batches.
begin;
select plan(4);

create function pg_temp.bury(p_type text, p_error text) returns uuid language plpgsql as $$
declare v_id uuid := jq_test.enqueue_and_claim('w1', p_type, 'dead_q', 1);
begin
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end $$;

select jq_test.set_now('2030-01-15 08:00Z') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_1') as first \gset
select jq_test.advance('1 minute') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_2') as second \gset
select jq_test.advance('1 minute') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_3') as third \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', null, 2), 2, 'limit 2 requeues two');
select set_eq('select id from jq.jobs', format('values (%L::uuid), (%L::uuid)', :'first', :'second'),
              'the two oldest failures');
select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', null, 100), 1,
          'a limit above what is left requeues what is left');
select is((select count(*)::int from jq.dead_jobs), 0, 'the group is empty');

select * from finish();
rollback;
