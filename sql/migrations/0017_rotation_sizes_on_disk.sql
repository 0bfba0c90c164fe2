-- Migration 17 (release 0.6.0): the rotation's size thresholds count a
-- generation's whole size on disk (heap, indexes and TOAST), not its heap
-- alone (issue #16, point 1; docs/storage.md "Rotation").
--
-- Autovacuum gives a drained generation's heap pages back but keeps every
-- index page its rows filled. Figure f at 2,000,000 jobs ended with two
-- generations of no heap page and 13.9 MB and 17.6 MB of indexes, taken by
-- the heap alone for empty and kept as they were (9.68x the fresh size at
-- the flood's end). The rules live in the functions (jq._storage_untouched,
-- jq._storage_worth_emptying, jq_storage_turn); this migration only says so
-- in the setting's description.
do $migration$
begin
if not jq._migration_pending(17) then
    return;
end if;

comment on column jq.settings.rotation_min_bytes is
    'jq_storage_rotate keeps a generation smaller than this many bytes on disk (heap, indexes and TOAST; outcome small), and its jq.queue_waiters marks below a quarter of it, instead of truncating them; jq_storage_turn turns only into a generation this small or untouched since its truncation; 0: truncate every generation.';

insert into jq.migrations (version, release, name) values (17, '0.6.0', 'rotation_sizes_on_disk');
end
$migration$;
