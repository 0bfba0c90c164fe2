-- Every jq_* function plans its statements with constraint_exclusion = off,
-- whatever the caller set. With the default (partition), the planner reads
-- and proves jq.jobs' twelve CHECK constraints against each partition, in
-- every plan of every statement that reads the parent; they never exclude a
-- partition (partition pruning does not need them), and proving so was
-- 30-45% of planning. Every session plans again after each truncation of a
-- generation, so this is paid by every worker after every rotation
-- (docs/design.md, Plans).
begin;
select plan(3);

create function pg_temp.partitions_read(p_sql text) returns integer
language plpgsql as $$
declare
    v_line text;
    v_read text[] := '{}';
begin
    for v_line in execute 'explain (costs off) ' || p_sql loop
        v_read := v_read || (regexp_match(v_line, ' on (jobs_(?:g[0-9]|waiting))\M'))[1];
    end loop;
    return (select count(distinct r) from unnest(v_read) r);
end
$$;

select is_empty(
    $$select oid::regprocedure from pg_proc
       where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'
         and not coalesce('constraint_exclusion=off' = any(proconfig), false)$$,
    'every jq_* function sets constraint_exclusion = off');

-- Pruning by the partition bounds is another mechanism, untouched: a
-- statement naming its generation still reads one partition.
set local constraint_exclusion = off;
select is(
    pg_temp.partitions_read($$select 1 from jq.jobs where generation = 3 and id = '00000000-0000-0000-0000-000000000000'$$),
    1,
    'with it off, a generation named in the statement still prunes to one partition');
select is(
    pg_temp.partitions_read($$select 1 from jq.jobs where id = '00000000-0000-0000-0000-000000000000'$$),
    4,
    'and a lookup by id alone reads the four');

select * from finish();
rollback;
