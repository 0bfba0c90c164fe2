-- A tenant's max_running caps all its running jobs in the queue, whatever
-- their priorities: a claim of many rows must not give a capped tenant its
-- room once per priority. Checked in a fair queue with another tenant, in a
-- plain queue, and for a tenant alone in its queue.
begin;
select plan(6);

select jq_test.set_now('2030-01-01 12:00Z') \gset
do $$
declare
    v_queue text;
begin
    foreach v_queue in array array['capprio_fair', 'capprio_plain', 'capprio_alone'] loop
        perform jq.jq_tenant_policy_set(v_queue, 'A', null, 2);
        perform jq_test.enqueue_tenant('A', 3, v_queue, 5);
        perform jq_test.enqueue_tenant('A', 3, v_queue, 0);
        if v_queue <> 'capprio_alone' then
            perform jq_test.enqueue_tenant('B', 10, v_queue, 0);
        end if;
    end loop;
end
$$;
select jq.jq_queue_set_fair('capprio_plain', false) \gset

create temp table claimed as
    select 'fair' as mode, c.* from jq.jq_claim('capprio_fair', 'w1', 10) c
    union all select 'plain', c.* from jq.jq_claim('capprio_plain', 'w1', 10) c
    union all select 'alone', c.* from jq.jq_claim('capprio_alone', 'w1', 10) c;

select is((select count(*)::int from claimed where mode = 'fair' and tenant = 'A'), 2,
          'fair queue: a claim of 10 gives A (cap 2) 2 jobs in all');
select results_eq($$select priority from claimed where mode = 'fair' and tenant = 'A'$$,
                  array[5, 5]::smallint[], 'its 2 priority-5 jobs');
select is((select count(*)::int from claimed where mode = 'fair' and tenant = 'B'), 8, 'and B the other 8 slots');
select is((select count(*)::int from claimed where mode = 'plain' and tenant = 'A'), 2,
          'plain queue: A gets 2 jobs in all');
select is((select count(*)::int from claimed where mode = 'alone'), 2, 'A alone in its queue: 2 jobs in all');
select is((select count(*)::int from jq.jobs where tenant = 'A' and status = 'processing'), 6,
          'so A runs 2 jobs in each of the three queues, no more');

select * from finish();
rollback;
