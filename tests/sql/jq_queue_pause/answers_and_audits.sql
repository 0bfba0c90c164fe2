-- jq_queue_pause answers true when it newly paused, false when already
-- paused; each call is audited (rows 1 or 0) with the actor, who is also
-- recorded as paused_by.
begin;
select plan(5);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select set_config('jq.actor', 'token:ops-alice', true) \gset
select is(jq.jq_queue_pause('audit_q'), true, 'first pause: true');
select is(jq.jq_queue_pause('audit_q'), false, 'again: false, nothing changes');
select is(jq.jq_queue_pause('audit_q', 'mail'), true, 'a type of it: a new pause');
select results_eq($$select queue, type, paused_at, paused_by from jq.queue_pauses where queue = 'audit_q' order by type nulls first$$,
                  $$values ('audit_q'::text, null::text, '2030-01-15 08:00Z'::timestamptz, 'token:ops-alice'::text),
                           ('audit_q', 'mail', '2030-01-15 08:00Z', 'token:ops-alice')$$,
                  'each pause records when and by whom');
select results_eq($$select action, target, rows, actor from jq.audit_log order by id$$,
                  $$values ('queue_pause'::text, '{"queue": "audit_q", "type": null}'::jsonb, 1::bigint, 'token:ops-alice'::text),
                           ('queue_pause', '{"queue": "audit_q", "type": null}', 0, 'token:ops-alice'),
                           ('queue_pause', '{"queue": "audit_q", "type": "mail"}', 1, 'token:ops-alice')$$,
                  'every call is audited, with whether it changed anything');

select * from finish();
rollback;
