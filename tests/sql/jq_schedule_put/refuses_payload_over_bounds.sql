-- A schedule's payload is a payload of every job it fires: the same bounds.
begin;
select plan(2);

select throws_ok($$select jq.jq_schedule_put('bounds-big', '0 8 * * *', 'UTC', 'digest',
                      jsonb_build_object('blob', repeat('x', 2 * 1024 * 1024)))$$,
                 '54000', null, 'an oversized schedule payload: 54000');
select is((select count(*) from jq.schedules where name = 'bounds-big'), 0::bigint, 'no schedule was written');

select * from finish();
rollback;
