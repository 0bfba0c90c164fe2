-- Invariant 6: within a queue the highest priority is claimed first, then
-- the oldest run_at; insertion order does not matter.
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select count(*) from jq.jq_enqueue_many($$[
    {"type": "low-old",    "queue": "claim_order", "priority": -1, "run_at": "2030-01-01T08:00:00Z"},
    {"type": "mid-new",    "queue": "claim_order", "priority": 5,  "run_at": "2030-01-01T11:00:00Z"},
    {"type": "high-new",   "queue": "claim_order", "priority": 10, "run_at": "2030-01-01T11:59:00Z"},
    {"type": "mid-old",    "queue": "claim_order", "priority": 5,  "run_at": "2030-01-01T09:00:00Z"},
    {"type": "zero",       "queue": "claim_order"},
    {"type": "high-old",   "queue": "claim_order", "priority": 10, "run_at": "2030-01-01T10:00:00Z"},
    {"type": "high-later", "queue": "claim_order", "priority": 10, "run_at": "2030-01-01T13:00:00Z"}
]$$) \gset

create temp table claimed (n serial, type text);
do $$
declare
    v_type text;
begin
    loop
        select c.type into v_type from jq.jq_claim('claim_order', 'w1', 1) c;
        exit when not found;
        insert into claimed (type) values (v_type);
    end loop;
end
$$;

select results_eq($$select type from claimed order by n$$,
                  array['high-old', 'high-new', 'mid-old', 'mid-new', 'zero', 'low-old'],
                  'one at a time: priority desc, then run_at asc; the future job is not claimed');

-- A multi-row claim takes the top of the same order.
select jq_test.advance('2 hours') \gset
select count(*) from jq.jq_enqueue_many($$[
    {"type": "b", "queue": "claim_order_2", "priority": 1},
    {"type": "a", "queue": "claim_order_2", "priority": 3},
    {"type": "d", "queue": "claim_order_2", "priority": -3},
    {"type": "c", "queue": "claim_order_2", "priority": 2}
]$$) \gset
select set_eq($$select type from jq.jq_claim('claim_order_2', 'w1', 2)$$, array['a', 'c'],
              'limit 2 claims the two highest priorities');
select set_eq($$select type from jq.jq_claim('claim_order_2', 'w1', 5)$$, array['b', 'd'],
              'the rest come after');

select * from finish();
rollback;
