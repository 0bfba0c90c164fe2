-- The lease finds the taken rows by ctid within the generations the claim
-- took from. A ctid names a row only within its partition: when one claim
-- takes jobs from two generations, the rows of either that sit at the ctid of
-- a job taken from the other must stay as they are. The leased rows come back
-- priority first, then run_at.
begin;
select plan(6);

select jq_test.at_slot_start() as cur \gset
select ((:cur + 1) % 3)::smallint as other \gset

-- Three jobs stay in the current generation; three more move to another one,
-- where they take the same ctids as the first three (both emptied first:
-- rows other tests rolled back still hold their places).
truncate jq.jobs_g0, jq.jobs_g1, jq.jobs_g2;
select count(*) from (select jq.jq_enqueue('a', '{}', 'q', 5)
                      union all select jq.jq_enqueue('a', '{}', 'q', 0)
                      union all select jq.jq_enqueue('a', '{}', 'q', 0)) e \gset
select count(*) from (select jq.jq_enqueue('b', '{}', 'q', 0)
                      union all select jq.jq_enqueue('b', '{}', 'q', 7)
                      union all select jq.jq_enqueue('b', '{}', 'q', 0)) e \gset
update jq.jobs set generation = :other where type = 'b';

select is((select count(*)::int
             from jq.jobs a join jq.jobs b on a.ctid = b.ctid
            where a.generation = :cur and b.generation = :other),
          3, 'precondition: each job of one generation shares its ctid with a job of the other');

select results_eq($$select type, priority from jq.jq_claim('q', 'w1', 2)$$,
                  $$values ('b'::text, 7::smallint), ('a', 5::smallint)$$,
                  'the claim takes the two urgent jobs, one from each generation, highest priority first');
select is((select count(*)::int from jq.jobs where status = 'processing'), 2,
          'only those two are leased');
select is((select count(*)::int from jq.jobs where status = 'processing' and priority > 0), 2,
          'the two leased are the urgent ones, not their namesakes by ctid in the other generation');
select is((select count(*)::int from jq.jobs where status = 'pending' and attempts = 0), 4,
          'the other four are pending with no attempt counted');

select results_eq($$select priority from jq.jq_claim('q', 'w1', 4)$$,
                  $$values (0::smallint), (0::smallint), (0::smallint), (0::smallint)$$,
                  'the rest are claimed next, all four');

select * from finish();
rollback;
