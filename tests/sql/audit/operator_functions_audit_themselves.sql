-- Every state-changing operator function (granted to jq_admin only) writes
-- exactly one audit row per call: its action, what it acted on, how many
-- rows it changed.
begin;
select plan(14);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select set_config('jq.actor', 'token:ops-bob', true) \gset

-- The one row a statement wrote (and that it wrote only one).
create function pg_temp.audited(p_sql text) returns text language plpgsql as $$
declare
    v_before bigint := coalesce((select max(id) from jq.audit_log), 0);
    v_rows   text;
begin
    execute p_sql;
    select string_agg(format('%s|%s|%s|%s', a.actor, a.action, a.target, a.rows), ' ; ' order by a.id) into v_rows
      from jq.audit_log a where a.id > v_before;
    return v_rows;
end
$$;

select is(pg_temp.audited($$select * from jq.jq_schedule_put('nightly', '0 3 * * *', 'UTC', 'report.build')$$),
          'token:ops-bob|schedule_put|{"cron": "0 3 * * *", "name": "nightly", "type": "report.build", "queue": "default", "timezone": "UTC"}|1',
          'jq_schedule_put (create)');
select is(pg_temp.audited($$select * from jq.jq_schedule_put('nightly', '0 4 * * *', 'UTC', 'report.build')$$),
          'token:ops-bob|schedule_put|{"cron": "0 4 * * *", "name": "nightly", "type": "report.build", "queue": "default", "timezone": "UTC"}|1',
          'jq_schedule_put (update)');
select is(pg_temp.audited($$select jq.jq_schedule_pause('nightly')$$),
          'token:ops-bob|schedule_pause|{"name": "nightly"}|1', 'jq_schedule_pause');
select is(pg_temp.audited($$select jq.jq_schedule_resume('nightly')$$),
          'token:ops-bob|schedule_resume|{"name": "nightly"}|1', 'jq_schedule_resume');
select is(pg_temp.audited($$select jq.jq_schedule_delete('nightly')$$),
          'token:ops-bob|schedule_delete|{"name": "nightly"}|1', 'jq_schedule_delete');
select is(pg_temp.audited($$select jq.jq_schedule_delete('nightly')$$),
          'token:ops-bob|schedule_delete|{"name": "nightly"}|0', 'jq_schedule_delete of nothing: 0 rows');
select is(pg_temp.audited($$select * from jq.jq_tenant_policy_set('mail', 'acme', 3, 10)$$),
          'token:ops-bob|tenant_policy_set|{"queue": "mail", "tenant": "acme", "weight": 3, "max_running": 10}|1',
          'jq_tenant_policy_set');
select is(pg_temp.audited($$select jq.jq_tenant_policy_delete('mail', 'acme')$$),
          'token:ops-bob|tenant_policy_delete|{"queue": "mail", "tenant": "acme"}|1', 'jq_tenant_policy_delete');
select is(pg_temp.audited($$select * from jq.jq_key_limit_set('report.build', 4)$$),
          'token:ops-bob|key_limit_set|{"type": "report.build", "max_running": 4}|1', 'jq_key_limit_set');
select is(pg_temp.audited($$select jq.jq_key_limit_delete('report.build')$$),
          'token:ops-bob|key_limit_delete|{"type": "report.build"}|1', 'jq_key_limit_delete');
select is(pg_temp.audited($$select jq.jq_queue_set_fair('mail', false)$$),
          'token:ops-bob|queue_set_fair|{"fair": false, "queue": "mail"}|1', 'jq_queue_set_fair');
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select is(pg_temp.audited($$select jq.jq_retry_dead('invoice.send')$$),
          'token:ops-bob|retry_dead|{"type": "invoice.send"}|1', 'jq_retry_dead');

-- A refused call leaves no row (the error rolls the call back).
select throws_ok($$select jq.jq_key_limit_set('report.build', 0)$$, '22023', null, 'a refused call raises');
select is((select count(*)::int from jq.audit_log where action = 'key_limit_set'), 1, 'and wrote no audit row');
select * from finish();
rollback;
