-- Where a new row of jq.jobs is stored: the default of jq.jobs.generation
-- (migrations 13 and 16, docs/storage.md). Installed before the migrations,
-- because the table's default calls it.
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
--
-- jq._storage_slot is the slot without turns: the default migrations 13 and
-- 14 set, which migration 16 replaces. Everything else asks
-- jq._storage_generation, or jq._storage_current (sql/functions/storage.sql).
create or replace function jq._storage_slot(p_at timestamptz)
returns smallint
language sql
immutable
parallel safe
as $$
    select (floor(extract(epoch from p_at - timestamptz '1970-01-01 00:00:00+00') / 2)::bigint % 3)::smallint
$$;

-- The generation of the slot p_at falls in once p_turns slots have been
-- ended early (jq_storage_turn, migration 16: the sequence
-- jq.storage_slot_turns). Each turn moves every later slot on by one
-- generation, so a turn makes the next generation current at once and the
-- count never goes back: a statement writes where it began, or later.
-- p_turns null (the sequence reset by hand) counts as none. Immutable and
-- SQL, as jq._storage_slot: jq.jobs.generation's default passes it the
-- sequence's last value (pg_sequence_last_value, the function behind the
-- pg_sequences view: 0.2 µs a row, where a SELECT of the sequence in a
-- function costs 3.7 µs).
create or replace function jq._storage_generation(p_at timestamptz, p_turns bigint)
returns smallint
language sql
immutable
parallel safe
as $$
    select ((floor(extract(epoch from p_at - timestamptz '1970-01-01 00:00:00+00') / 2)::bigint
             + coalesce(p_turns, 0)) % 3)::smallint
$$;
