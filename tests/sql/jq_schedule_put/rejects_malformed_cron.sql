-- SQL checks the cron itself (other languages call jq_schedule_put
-- directly): five fields of numbers, names, *, ranges, lists and steps, or
-- an @alias. Anything else raises 22023 naming the cron, and writes nothing.
begin;
select plan(29);

create function pg_temp.put(p_cron text) returns text language sql as $$
    select format('select jq.jq_schedule_put(%L, %L, %L, %L)', 'd', p_cron, 'UTC', 't')
$$;

select throws_ok(pg_temp.put(c), '22023', null, format('cron %L raises 22023', c))
  from unnest(array[
    '* * * * * *',        -- six fields (seconds)
    '0 8 * *',            -- four fields
    '',                   -- none
    '   ',
    '60 * * * *',         -- minute out of range
    '0 24 * * *',         -- hour out of range
    '0 0 0 * *',          -- day 0
    '0 0 32 * *',
    '0 0 * 0 *',          -- month 0
    '0 0 * 13 *',
    '0 0 * * 8',          -- weekday 8
    '5-1 * * * *',        -- backwards range
    '*/0 * * * *',        -- step 0
    '*/61 * * * *',       -- step beyond the field
    '0 0 L * *',          -- last day: not supported
    '0 0 * * 1#2',        -- nth weekday: not supported
    '0 0 ? * *',
    'H * * * *',
    '@reboot',
    '1,,2 * * * *',
    '0 0 * foo *',        -- unknown name
    '0 0 * * funday',
    '0 0 31 2 *',         -- never fires
    '0 0 30 2 *',
    '0 0 31 4,6,9,11 *'
  ]) c;

select throws_matching(pg_temp.put('0 24 * * *'), 'cron ''0 24 \* \* \*''.*hour', 'the message names the cron and the field');
select throws_ok(pg_temp.put(null), '22004', null, 'a null cron raises 22004');
select throws_ok(pg_temp.put(repeat('1,', 127) || '1 * * * *'), '22001', null, 'a cron over 255 characters raises 22001');
select is((select count(*)::int from jq.schedules), 0, 'nothing was written');

select * from finish();
rollback;
