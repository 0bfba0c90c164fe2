-- The audit log's writer. Every operator function (granted to jq_admin
-- only) calls it once per call, after acting, with what it did:
--   perform jq._audit('queue_pause', jsonb_build_object('queue', p_queue), v_rows);
-- The actor is what the caller named in its transaction
-- (select set_config('jq.actor', 'token:ops-alice', true); the HTTP server
-- names its token), else the database role. The role column is always
-- session_user, which no session setting can change.
create or replace function jq._audit(p_action text, p_target jsonb, p_rows bigint)
returns void
language sql
volatile
as $$
    insert into jq.audit_log (at, role, actor, action, target, rows)
    values (jq._now(),
            session_user,
            left(coalesce(nullif(btrim(current_setting('jq.actor', true)), ''), session_user), 255),
            p_action,
            coalesce(p_target, '{}'),
            greatest(coalesce(p_rows, 0), 0))
$$;
comment on function jq._audit(text, jsonb, bigint) is
    'Records one operator action in jq.audit_log: action, target (filter or ids), rows changed; actor from jq.actor or session_user.';
