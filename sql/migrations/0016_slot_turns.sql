-- Migration 16 (release 0.6.0): a slot ends early when its generation is
-- full (issue #16, point 1; docs/storage.md "Turning the slot early").
--
--   jq.storage_slot_turns  a sequence counting the slots ended early:
--                          jq_storage_turn advances it when the current
--                          generation's heap has reached
--                          settings.rotation_turn_bytes and the next one is
--                          empty, so new rows go into the next generation at
--                          once and the full one can be truncated 50 ms later
--                          instead of at the end of its two seconds. A
--                          generation then holds at most about that many
--                          bytes of a flood, whatever its rate (figure f at
--                          28,000 jobs/s: 28 MB a slot). A sequence, because
--                          it is read by every insert and changed outside
--                          any transaction: reading it costs 0.2 µs a row,
--                          and its one row never leaves a dead version.
--   jq.jobs.generation, jq.queue_waiters.generation
--                          default to the generation of the slot counted
--                          with the turns (jq._storage_generation).
--   jq.settings gains
--     rotation_turn_bytes  the heap of the current generation at which
--                          jq_storage_turn ends its slot (2 MB); 0: slots
--                          last their two seconds.
do $migration$
begin
if not jq._migration_pending(16) then
    return;
end if;

create sequence jq.storage_slot_turns as bigint minvalue 0 start with 0;
perform setval('jq.storage_slot_turns', 0, true);  -- read as 0, not null, before the first turn
comment on sequence jq.storage_slot_turns is
    'How many slots jq_storage_turn ended early: added to the slot number of jq._storage_generation, the default of jq.jobs.generation.';

alter table jq.jobs alter column generation
    set default jq._storage_generation(statement_timestamp(), pg_sequence_last_value('jq.storage_slot_turns'::regclass));
alter table jq.queue_waiters alter column generation
    set default jq._storage_generation(statement_timestamp(), pg_sequence_last_value('jq.storage_slot_turns'::regclass));

alter table jq.settings
    add column rotation_turn_bytes integer not null default 2097152,
    add constraint settings_rotation_turn_bytes_range check (rotation_turn_bytes between 0 and 1073741824);
comment on column jq.settings.rotation_turn_bytes is
    'jq_storage_turn ends the current slot early once its generation''s heap has this many bytes and the next generation is empty; 0: never.';

insert into jq.migrations (version, release, name) values (16, '0.6.0', 'slot_turns');
end
$migration$;
