-- Schedule slots follow the server's clock: a worker under jq.now in the
-- future sees no schedule due early and cannot fire a future slot; an
-- unprivileged role cannot call any jq function at all, whatever its clock.
begin;
select plan(4);

update jq.settings set allow_test_clock = false;
select jq.jq_schedule_put('sec-digest', '0 8 * * *', 'UTC', 'sec_digest',
                          p_next_run_at => now() + interval '1 hour');

set local role jq_worker;
set local jq.now = '2100-01-01 00:00Z';
select count(*) as due from jq.jq_schedules_due(100) d where d.name = 'sec-digest' \gset
reset role;
reset jq.now;
select is(:due::integer, 0, 'jq_worker under jq.now = 2100 finds the schedule not due');

create function pg_temp.fire_as(p_role text, p_now text) returns text
language plpgsql as $$
declare
    v_due timestamptz := (select next_run_at from jq.schedules where name = 'sec-digest');
begin
    execute format('set local role %I', p_role);
    perform set_config('jq.now', p_now, true);
    begin
        perform jq.jq_schedules_fire(array['sec-digest'], array[v_due], array[v_due], array[v_due + interval '1 day']);
        reset role;
        return 'fired';
    exception when others then
        reset role;
        return sqlstate;
    end;
end
$$;
select is(pg_temp.fire_as('jq_worker', '2100-01-01 00:00Z'), '22023',
          'jq_worker cannot fire a slot that is still in the future (22023)');
select is((select count(*) from jq.jobs where type = 'sec_digest'), 0::bigint, 'no job was enqueued');

create role jq_test_nobody nologin;
select is(pg_temp.fire_as('jq_test_nobody', '2100-01-01 00:00Z'), '42501',
          'an unprivileged role gets 42501, clock or not');

select * from finish();
rollback;
