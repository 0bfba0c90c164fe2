-- jq_maintain deletes audit rows older than settings.audit_retention (90
-- days by default; null keeps them forever) and reports audit_purged.
begin;
select plan(4);

-- Wait for any other session running jq_maintain (pg_prove -j).
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-01 08:00Z') \gset
select jq._audit('old_action', '{}', 1) \gset
select jq_test.set_now('2030-03-01 08:00Z') \gset
select jq._audit('newer_action', '{}', 1) \gset

select jq_test.set_now('2030-04-02 08:00Z') \gset
select jq.jq_maintain() as r1 \gset
select is((:'r1'::jsonb ->> 'audit_purged')::int, 1, 'the row older than 90 days is deleted');
select results_eq('select action from jq.audit_log', $$values ('newer_action'::text)$$, 'the newer one stays');

update jq.settings set audit_retention = null;
select jq_test.set_now('2040-01-01 08:00Z') \gset
select jq.jq_maintain() as r2 \gset
select is((:'r2'::jsonb ->> 'audit_purged')::int, 0, 'a null retention keeps every row');
select is((select count(*)::int from jq.audit_log), 1, 'still there ten years on');

select * from finish();
rollback;
