-- Migration 7 (release 0.5.0): the operator audit log.
--
--   jq.audit_log         one row per operator action (pause a queue, retry
--                        or discard jobs by filter, retry a dead group, edit
--                        a policy, ...): when, the database role that ran it
--                        (session_user: not something a session can set),
--                        the actor it named (the HTTP token's name, or the
--                        role when none was named: set jq.actor), what it
--                        did, the filter or ids it acted on, and how many
--                        rows it changed. Written by jq._audit() inside the
--                        acting function, so the row commits or rolls back
--                        with the action itself.
do $migration$
begin
if not jq._migration_pending(7) then
    return;
end if;

create table jq.audit_log (
    id     bigint generated always as identity primary key,
    at     timestamptz not null,
    role   text not null,
    actor  text not null,
    action text not null,
    target jsonb not null default '{}',
    rows   bigint not null default 0,
    constraint audit_log_actor_length check (char_length(actor) between 1 and 255),
    constraint audit_log_action_length check (char_length(action) between 1 and 100),
    constraint audit_log_target_object check (jsonb_typeof(target) = 'object'),
    constraint audit_log_rows_range check (rows >= 0)
);
comment on table jq.audit_log is
    'Operator actions: when, which database role, the actor it named (jq.actor), what, on which filter or ids, how many rows. Written by jq._audit().';
-- Listing newest first and the retention sweep, both by time.
create index audit_log_at_idx on jq.audit_log (at, id);

insert into jq.migrations (version, release, name) values (7, '0.5.0', 'audit_log');
end
$migration$;
