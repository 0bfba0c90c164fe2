-- Migration 14 (release 0.6.0): jq.queue_waiters in generations too (issue #16,
-- docs/storage.md "Hot rows").
--
--   jq.queue_waiters   becomes a table partitioned by list on a new column,
--                      generation smallint, with the default of jq.jobs'
--                      (jq._storage_slot(statement_timestamp())):
--                      jq.queue_waiters_g0, _g1 and _g2 take new marks in turn,
--                      two seconds each. A mark is inserted when a worker goes
--                      idle on a queue and deleted when an insert notifies it,
--                      once per wake-up: under a held snapshot those dead
--                      versions could not be vacuumed, and the NOTIFY trigger's
--                      lookup walked all of them on every enqueue statement.
--                      jq_storage_rotate now moves the marks of a generation it
--                      empties into the current one and TRUNCATEs its partition.
--                      There is no waiting partition: a mark is never deferred.
--                      The primary key becomes (queue, worker, generation) (a key
--                      of a partitioned table holds its partition key);
--                      jq_set_waiting keeps one mark per (queue, worker) itself.
--
-- Every mark is copied into the generation of the current slot.
do $migration$
declare
    v_part text;
begin
if not jq._migration_pending(14) then
    return;
end if;

lock table jq.queue_waiters in access exclusive mode;
alter table jq.queue_waiters rename to queue_waiters_0013;
alter table jq.queue_waiters_0013 drop constraint queue_waiters_pkey;

create table jq.queue_waiters (
    queue       text not null,
    worker      text not null,
    backend_pid integer not null,
    since       timestamptz not null,
    generation  smallint not null default jq._storage_slot(statement_timestamp()),
    constraint queue_waiters_pkey primary key (queue, worker, generation)
) partition by list (generation);
comment on table jq.queue_waiters is 'Workers waiting for work on a queue (jq_set_waiting); the NOTIFY trigger wakes only these queues.';
comment on column jq.queue_waiters.generation is
    'Where the mark is stored: the generation of the two-second slot it was written in (jq._storage_slot), as jq.jobs; jq_storage_rotate moves marks out of a generation and truncates it. Storage only: no rule reads it.';

foreach v_part in array array['g0', 'g1', 'g2'] loop
    execute format('create table jq.%I partition of jq.queue_waiters for values in (%s)',
                   'queue_waiters_' || v_part, substr(v_part, 2)::integer);
end loop;

insert into jq.queue_waiters (queue, worker, backend_pid, since)
select w.queue, w.worker, w.backend_pid, w.since from jq.queue_waiters_0013 w;
drop table jq.queue_waiters_0013;

insert into jq.migrations (version, release, name) values (14, '0.6.0', 'waiter_generations');
end
$migration$;
