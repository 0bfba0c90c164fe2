-- Where a new row of jq.jobs or jq.queue_waiters is stored: the default of
-- their generation column is this function of the sequence
-- jq.storage_turns (docs/storage.md). Installed before the migrations,
-- because the tables' defaults call it.
--
-- IMMUTABLE and SQL so that the planner inlines it into every INSERT: no
-- table is read and no function called per row; the sequence is read with
-- pg_sequence_last_value, which writes nothing and leaves no dead version.
-- The count only grows, so a statement writes into the generation current
-- when it began or a later one. A null count (the sequence reset by hand)
-- is generation 0.
create or replace function jq._storage_generation(p_turns bigint)
returns smallint
language sql
immutable
parallel safe
as $$
    select (coalesce(p_turns, 0) % 3)::smallint
$$;
