-- jq_queue_resume answers true when the queue (or type) was paused, false
-- otherwise; each call is audited with rows 1 or 0.
begin;
select plan(4);

select jq.jq_queue_pause('res_q', 'mail') \gset
select is(jq.jq_queue_resume('res_q'), false, 'the whole queue was not paused: false');
select is(jq.jq_queue_resume('res_q', 'mail'), true, 'the type was: true');
select is_empty($$select 1 from jq.queue_pauses where queue = 'res_q'$$, 'no pause is left');
select results_eq($$select action, target, rows from jq.audit_log where action = 'queue_resume' order by id$$,
                  $$values ('queue_resume'::text, '{"queue": "res_q", "type": null}'::jsonb, 0::bigint),
                           ('queue_resume', '{"queue": "res_q", "type": "mail"}', 1)$$,
                  'both calls are audited');

select * from finish();
rollback;
