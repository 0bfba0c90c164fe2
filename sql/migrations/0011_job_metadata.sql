-- Migration 11 (release 0.5.0): job metadata, the carrier of trace context.
--
--   jq.jobs,
--   jq.dead_jobs,
--   jq.job_history gain  metadata jsonb: null, or an object of string values
--                        set at enqueue (p_metadata; jq_enqueue_many's
--                        "metadata" key) and handed to the worker by
--                        jq_claim; it moves with the job (dead letters,
--                        history, retry of a dead job). jq's own keys are the
--                        W3C trace context, "traceparent" and "tracestate"
--                        (docs/sql-api.md), so a service in any language can
--                        start a trace that the worker continues. Bounded by
--                        jq._check_metadata (enqueue.sql): 8192 bytes.
--   jq_enqueue           gains p_metadata (last): the old signature is dropped
--   jq_claim,            return metadata as their last column: dropped here
--   jq._claim_suspect    (a function's result columns cannot be replaced) and
--                        recreated by claim.sql and workers.sql
do $migration$
begin
if not jq._migration_pending(11) then
    return;
end if;

alter table jq.jobs
    add column metadata jsonb,
    add constraint jobs_metadata_object check (jsonb_typeof(metadata) = 'object');
alter table jq.dead_jobs add column metadata jsonb;
alter table jq.job_history add column metadata jsonb;
comment on column jq.jobs.metadata is
    'Headers of the job (an object of strings), e.g. the W3C trace context: traceparent, tracestate. Null when none.';

drop function if exists jq.jq_enqueue(text, jsonb, text, integer, timestamptz, integer, text, text, text);
drop function if exists jq.jq_claim(text, text, integer, interval, text[]);
drop function if exists jq._claim_suspect(text, text, interval, timestamptz, text[]);

insert into jq.migrations (version, release, name) values (11, '0.5.0', 'job_metadata');
end
$migration$;
