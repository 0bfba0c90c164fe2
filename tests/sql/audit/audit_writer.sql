-- jq._audit() records who did what: the role is session_user whatever the
-- session sets; the actor is jq.actor when named, else the role.
begin;
select plan(7);

select jq._audit('queue_pause', '{"queue": "mail"}', 3);
select is((select format('%s|%s|%s|%s|%s', role, actor, action, target, rows) from jq.audit_log),
          format('%s|%s|queue_pause|{"queue": "mail"}|3', session_user, session_user),
          'without jq.actor the actor is the database role');

select set_config('jq.actor', 'token:ops-alice', true);
select jq._audit('dead_retry', null, null);
select is((select format('%s|%s|%s|%s', role, actor, target, rows) from jq.audit_log where action = 'dead_retry'),
          format('%s|token:ops-alice|{}|0', session_user),
                  'a named actor is recorded beside the real role; a null target or count is stored as empty / 0');

select set_config('jq.actor', '   ', true);
select jq._audit('blank_actor', '{}', 1);
select is((select actor from jq.audit_log where action = 'blank_actor'), session_user::text,
          'a blank actor falls back to the role');

select set_config('jq.actor', repeat('x', 400), true);
select jq._audit('long_actor', '{}', 1);
select is((select char_length(actor) from jq.audit_log where action = 'long_actor'), 255,
          'an overlong actor is cut to 255 characters');

select set_config('jq.now', '2026-01-01 08:00Z', true);
select jq._audit('clocked', '{}', 1);
select is((select at from jq.audit_log where action = 'clocked'), '2026-01-01 08:00Z'::timestamptz,
          'the row is stamped with jq._now()');

select throws_ok($$select jq._audit('x', '[1]', 1)$$, '23514', null, 'a target that is not an object is refused');
select throws_ok($$select jq._audit('', '{}', 1)$$, '23514', null, 'an empty action is refused');

select * from finish();
rollback;
