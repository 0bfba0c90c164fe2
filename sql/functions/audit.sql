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

-- The audit log, newest first, one page at a time: keyset on id (pass the
-- last id of a page as p_before_id for the next), never OFFSET. p_since,
-- p_action and p_actor narrow it (null = all). Reads the primary key
-- backwards; filters are checked row by row, the page stops at p_limit.
create or replace function jq.jq_audit_log(
    p_since     timestamptz default null,
    p_action    text default null,
    p_actor     text default null,
    p_limit     integer default 100,
    p_before_id bigint default null)
returns table (id bigint, at timestamptz, role text, actor text, action text, target jsonb, rows bigint)
language plpgsql
stable
security definer
set search_path = jq, pg_catalog, pg_temp
-- Function bodies are read as written, whatever the caller set (see tests/sql/security).
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
as $$
begin
    perform jq._check_not_null(p_limit, 'limit', 'Pass a page size between 1 and 1000 (default 100).');
    if p_limit not between 1 and 1000 then
        raise exception 'limit % is out of range', p_limit
            using errcode = '22023', hint = 'Pass a page size between 1 and 1000 (default 100).';
    end if;
    return query
    select a.id, a.at, a.role, a.actor, a.action, a.target, a.rows
      from jq.audit_log a
     where (p_before_id is null or a.id < p_before_id)
       and (p_since is null or a.at >= p_since)
       and (p_action is null or a.action = p_action)
       and (p_actor is null or a.actor = p_actor)
     order by a.id desc
     limit p_limit;
end
$$;
comment on function jq.jq_audit_log(timestamptz, text, text, integer, bigint) is
    'The operator audit log (since, action, actor, limit 1..1000 default 100, before_id) -> (id, at, role, actor, action, target, rows), newest first; the next page passes the last id as before_id.';

-- jq._audit for the operator functions that answer whether they found their
-- row (schedule, policy, key limit deletes and pauses): records the action
-- with rows 1 or 0 and hands the answer back, so the call stays one line
-- (a PERFORM would overwrite FOUND before it is returned).
create or replace function jq._audited_found(p_action text, p_target jsonb, p_found boolean)
returns boolean
language plpgsql
volatile
as $$
begin
    perform jq._audit(p_action, p_target, case when p_found then 1 else 0 end);
    return p_found;
end
$$;
