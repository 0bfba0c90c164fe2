-- Fair claiming: one claim of limit 10 in a queue where five tenants
-- (A, B, C, D and the jobs without a tenant) each have 3 ready jobs of equal
-- priority shares its slots evenly: 2 jobs each, each tenant's 2 oldest.
-- The tenants are enqueued one after another, so plain FIFO would take A's,
-- B's and C's 3 jobs and one of D's.
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset
do $$
declare
    v_tenant text;
begin
    foreach v_tenant in array array['A', 'B', 'C', 'D', null] loop
        perform jq_test.enqueue_tenant(v_tenant, 3, 'fair_split');
        perform jq_test.advance('1 minute');
    end loop;
end
$$;

create temp table claimed as select * from jq.jq_claim('fair_split', 'w1', 10);

select results_eq($$select coalesce(tenant, '-'), count(*)::int from claimed group by 1 order by 1$$,
                  $$values ('-'::text, 2), ('A', 2), ('B', 2), ('C', 2), ('D', 2)$$,
                  'the claim of 10 holds 2 jobs of each of the 5 tenants, the no-tenant jobs included');
select is_empty($$select 1 from claimed where payload ->> 'i' = '3'$$,
                'each tenant''s newest job is left: the 2 oldest of each were claimed');
select results_eq($$select coalesce(tenant, '-'), count(*)::int from jq.jobs
                     where queue = 'fair_split' and status = 'pending' group by 1 order by 1$$,
                  $$values ('-'::text, 1), ('A', 1), ('B', 1), ('C', 1), ('D', 1)$$,
                  'one job of each tenant is still pending');

select * from finish();
rollback;
