-- jq._now() honours the session setting jq.now only where the schema owner
-- turned jq.settings.allow_test_clock on (the test suites do, for their own
-- databases). A fresh install has it off, and no jq role may turn it on.
begin;
select plan(7);

select col_default_is('jq', 'settings', 'allow_test_clock', 'false', 'a fresh install ignores jq.now');

update jq.settings set allow_test_clock = false;
set local jq.now = '2100-01-01 00:00Z';
select ok(jq._now() < '2100-01-01'::timestamptz, 'with the test clock off, jq.now moves nothing');
select ok(abs(extract(epoch from jq._now() - now())) < 1, 'with the test clock off, jq._now() is now()');

update jq.settings set allow_test_clock = true;
select is(jq._now(), '2100-01-01 00:00Z'::timestamptz, 'with the test clock on, jq.now is honoured');
reset jq.now;

-- Who may turn it on: not jq_admin (who may change every other setting), not the other roles.
create function pg_temp.try_as(p_role text, p_sql text) returns text
language plpgsql as $$
begin
    execute format('set local role %I', p_role);
    begin
        execute p_sql;
        reset role;
        return 'ok';
    exception when others then
        reset role;
        return sqlstate;
    end;
end
$$;
select is(pg_temp.try_as('jq_admin', 'update jq.settings set allow_test_clock = true'), '42501',
          'jq_admin may not turn the test clock on (42501)');
select is(pg_temp.try_as('jq_admin', 'update jq.settings set max_payload_bytes = 2048'), 'ok',
          'jq_admin may change the bounds');
select is(array[pg_temp.try_as('jq_worker', 'update jq.settings set allow_test_clock = true'),
                pg_temp.try_as('jq_producer', 'update jq.settings set allow_test_clock = true')],
          array['42501', '42501'], 'jq_worker and jq_producer may not either');

select * from finish();
rollback;
