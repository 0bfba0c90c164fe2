-- Within a tenant, the oldest run_at is claimed first, whatever the order
-- the jobs were enqueued in, while tenants still take turns.
begin;
select plan(2);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "a3", "queue": "fair_old", "tenant": "A", "run_at": "2030-01-01T11:30:00Z"},
    {"type": "b2", "queue": "fair_old", "tenant": "B", "run_at": "2030-01-01T11:20:00Z"},
    {"type": "a1", "queue": "fair_old", "tenant": "A", "run_at": "2030-01-01T10:00:00Z"},
    {"type": "b1", "queue": "fair_old", "tenant": "B", "run_at": "2030-01-01T10:30:00Z"},
    {"type": "a4", "queue": "fair_old", "tenant": "A"},
    {"type": "b3", "queue": "fair_old", "tenant": "B", "run_at": "2030-01-01T11:59:00Z"},
    {"type": "a2", "queue": "fair_old", "tenant": "A", "run_at": "2030-01-01T11:00:00Z"},
    {"type": "a5", "queue": "fair_old", "tenant": "A", "run_at": "2030-01-01T12:00:01Z"}
]$$) \gset

create temp table claimed (n serial, type text);
do $$
declare
    v_type text;
begin
    loop
        select c.type into v_type from jq.jq_claim('fair_old', 'w1', 1) c;
        exit when not found;
        insert into claimed (type) values (v_type);
    end loop;
end
$$;

select results_eq($$select type from claimed order by n$$,
                  array['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4'],
                  'tenants alternate, each tenant''s jobs oldest run_at first; the future job is not claimed');
select is((select type from jq.jobs where queue = 'fair_old' and status = 'pending'), 'a5',
          'only the future job is left');

select * from finish();
rollback;
