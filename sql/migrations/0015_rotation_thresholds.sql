-- Migration 15 (release 0.6.0): when a generation is not worth emptying
-- (issue #16, point 5; docs/storage.md "What a truncation costs").
--
--   jq.settings gains
--     rotation_min_bytes  a generation whose heap is smaller is kept as it
--                         is ('small') instead of emptied: a truncation holds
--                         the partition's ACCESS EXCLUSIVE lock for 15-35 ms
--                         on a durable server (one fsync per index it builds
--                         empty) and makes every session plan its statements
--                         again, and under 256 kB of row versions are not
--                         worth that. Its marks of jq.queue_waiters are kept
--                         below a quarter of it. 0: empty every generation.
--   jq.storage_generations gains
--     live_rows, live_at  the generation's live rows by the statistics when
--                         the rotation last found it a backlog, and when: a
--                         backlog the claims are working down is left to
--                         them, even when it is mostly dead row versions.
do $migration$
begin
if not jq._migration_pending(15) then
    return;
end if;

alter table jq.settings
    add column rotation_min_bytes integer not null default 262144,
    add constraint settings_rotation_min_bytes_range check (rotation_min_bytes between 0 and 1073741824);
comment on column jq.settings.rotation_min_bytes is
    'jq_storage_rotate keeps a generation whose heap is smaller than this many bytes (outcome small), and its jq.queue_waiters marks below a quarter of it, instead of truncating them; 0: truncate every generation.';

alter table jq.storage_generations
    add column live_rows bigint,
    add column live_at timestamptz;
comment on column jq.storage_generations.live_rows is
    'The live rows of the generation, by the statistics, when jq_storage_rotate last found it a backlog (draining); null since its last truncation.';
comment on column jq.storage_generations.live_at is
    'When live_rows was read.';

insert into jq.migrations (version, release, name) values (15, '0.6.0', 'rotation_thresholds');
end
$migration$;
