-- Ending a slot early (migration 16, docs/storage.md "Turning the slot
-- early").
--
-- A slot lasts two seconds, so a generation holds two seconds of writes:
-- about 1 MB at the requirements' 1,000 jobs/s, 28 MB in figure f's flood
-- of 28,000 jobs/s, all of it dead versions a held snapshot pins and every
-- claim walks until the generation is truncated. jq_storage_turn bounds
-- that by size instead of time: once the current generation's heap has
-- reached settings.rotation_turn_bytes, it advances jq.storage_slot_turns,
-- so every insert from then on goes into the next generation, and the full
-- one is the previous generation, truncated by the next jq_storage_rotate
-- (pyjq workers call it 50 ms after a turn, as after a boundary).
--
-- Only into an empty generation: the next one must be untouched since its
-- truncation (jq._storage_untouched) or no larger than
-- settings.rotation_min_bytes on disk, heap, indexes and TOAST (kept
-- small). One still
-- holding a backlog is not turned into: that would only spread the writes
-- over more dead rows. Under the rotation's advisory lock, so two callers
-- never turn twice for one full generation, and never while it empties a
-- generation.
create or replace function jq.jq_storage_turn()
returns boolean
language plpgsql
volatile
security definer
set search_path = jq, pg_catalog, pg_temp
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
declare
    v_settings jq.settings;
    v_current  smallint;
    v_next     regclass;
begin
    select * into v_settings from jq.settings;
    if v_settings.rotation_turn_bytes = 0 or not jq._storage_try_rotation_lock() then
        return false;
    end if;
    v_current := jq._storage_current();
    v_next := format('jq.jobs_g%s', (v_current + 1) % 3)::regclass;
    if pg_relation_size(format('jq.jobs_g%s', v_current)::regclass) < v_settings.rotation_turn_bytes
       or not (jq._storage_untouched(v_next) or pg_total_relation_size(v_next) <= v_settings.rotation_min_bytes) then
        return false;
    end if;
    perform nextval('jq.storage_slot_turns');
    return true;
end
$$;
comment on function jq.jq_storage_turn() is
    'End the current storage slot early -> true when it did: when the current generation''s heap has reached settings.rotation_turn_bytes and the next generation is empty (untouched since its truncation, or at most settings.rotation_min_bytes on disk with its indexes), new rows go into the next generation from now on, and the full one is truncated by the next jq_storage_rotate (call it 50 ms later). false: not full, the next generation not empty, turning off (rotation_turn_bytes 0), or another session rotating. Call every 0.25 s while jobs flow (pyjq workers do); without it slots last their two seconds.';
