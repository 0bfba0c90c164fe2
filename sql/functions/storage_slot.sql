-- Where a new row of jq.jobs is stored: the default of jq.jobs.generation
-- (migration 13, docs/storage.md). Installed before the migrations, because
-- the table's default calls it.
--
-- Time is cut into slots of two seconds and the slots take the three
-- generations in turn, so every statement writes into the generation of the
-- slot it started in, and the generation two slots back receives nothing
-- new: jq_storage_rotate moves what is still alive in it and TRUNCATEs it.
-- Generation 3 (jq.jobs_waiting) is never a slot: rows get there only when
-- the rotation moves a job due later than settings.waiting_horizon.
--
-- IMMUTABLE and SQL so that the planner inlines it into every INSERT: no
-- table is read and no function called per row. The body must be immutable
-- too, or the planner calls the function instead: extract(epoch from a
-- timestamptz) is STABLE, extract(epoch from an interval) IMMUTABLE. Changing the slot length or the count of
-- generations needs a migration (the partitions are made for 0, 1, 2).
create or replace function jq._storage_slot(p_at timestamptz)
returns smallint
language sql
immutable
parallel safe
as $$
    select (floor(extract(epoch from p_at - timestamptz '1970-01-01 00:00:00+00') / 2)::bigint % 3)::smallint
$$;
