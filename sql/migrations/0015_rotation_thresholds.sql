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
--     live_rows, live_at  a generation's live rows when they last changed,
--                         as the rotation saw them, and when (-1: it is being
--                         emptied): a generation of more live rows than one
--                         call moves is emptied only once they have stood
--                         still for 10 s; one the claims are taking is left to
--                         them rather than moved 500 rows a call.
--     marks_truncated_at, marks_truncations, marks_moved
--                         the same record for the generation's partition
--                         of jq.queue_waiters, which jq_storage reports
--                         beside the jobs' partitions.
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
    add column live_rows integer,
    add column live_at timestamptz,
    add column marks_truncated_at timestamptz,
    add column marks_truncations bigint not null default 0,
    add column marks_moved bigint not null default 0;
comment on column jq.storage_generations.live_rows is
    'The live rows of the generation when jq_storage_rotate last saw them change (counted up to ten times settings.rotation_move_limit plus one); -1 while it empties the generation; null once truncated.';
comment on column jq.storage_generations.live_at is
    'When live_rows last changed.';
comment on column jq.storage_generations.marks_truncated_at is
    'When jq_storage_rotate last truncated the generation''s partition of jq.queue_waiters.';
comment on column jq.storage_generations.marks_truncations is
    'How many times jq_storage_rotate truncated the generation''s partition of jq.queue_waiters.';
comment on column jq.storage_generations.marks_moved is
    'How many marks of jq.queue_waiters jq_storage_rotate moved out of the generation before truncating it.';

insert into jq.migrations (version, release, name) values (15, '0.6.0', 'rotation_thresholds');
end
$migration$;
