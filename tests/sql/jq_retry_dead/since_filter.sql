-- p_since requeues only jobs that failed at or after it.
begin;
select plan(3);

create function pg_temp.bury(p_type text, p_error text) returns uuid language plpgsql as $$
declare v_id uuid := jq_test.enqueue_and_claim('w1', p_type, 'dead_q', 1);
begin
    perform jq.jq_fail(v_id, 'w1', p_error);
    return v_id;
end $$;

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_1') as old \gset
select jq_test.advance('1 hour') as t1 \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_2') \gset
select jq_test.advance('1 hour') \gset
select pg_temp.bury('invoice.send', 'Timeout after 30s for inv_3') \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?', :'t1'), 2,
          'the two failures at or after since are requeued');
select results_eq('select id from jq.dead_jobs', format('values (%L::uuid)', :'old'),
                  'the earlier failure stays dead');
select is(jq.jq_retry_dead(p_since => :'t1'::timestamptz + interval '2 hours'), 0, 'a since after every failure requeues nothing');

select * from finish();
rollback;
