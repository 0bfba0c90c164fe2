-- A blank error (it would match every group) is refused with 22023 and
-- nothing is requeued or audited.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset

select throws_ok($$select jq.jq_retry_dead('invoice.send', ' ')$$, '22023', 'error filter is blank', 'a blank error is refused');
select is((select count(*)::int from jq.dead_jobs), 1, 'the dead job is still dead');
select is_empty('select 1 from jq.audit_log', 'nothing was audited');

select * from finish();
rollback;
