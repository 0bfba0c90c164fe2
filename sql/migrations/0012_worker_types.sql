-- Migration 12 (release 0.5.0): the job types each worker handles.
--
--   jq.workers gains
--     types              the job types the worker claims (its handlers), as
--                        it said at registration; null when it did not say
--                        (a worker in another language, or one of 0.4.0),
--                        which means "may handle any type". Read by
--                        jq_unhandled_types: jobs waiting in a queue whose
--                        live workers all said their types and none of them
--                        handles the job's type wait for ever.
--   jq_worker_register gains p_types text[] at the end, so the old
--   signature goes (a second overload would make positional calls
--   ambiguous); jq_workers gains the result column types, so it is
--   dropped to be created again.
do $migration$
begin
if not jq._migration_pending(12) then
    return;
end if;

alter table jq.workers
    add column types text[],
    add constraint workers_types_size check (cardinality(types) <= 10000);
comment on column jq.workers.types is
    'The job types the worker handles, as it registered them; null: it did not say (it may handle any type).';

drop function if exists jq.jq_worker_register(text, jsonb, text, integer, text);
drop function if exists jq.jq_workers();

insert into jq.migrations (version, release, name) values (12, '0.5.0', 'worker_types');
end
$migration$;
