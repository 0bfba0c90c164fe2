-- The jitter offset depends only on (name, slot): in [0, jitter_seconds),
-- the same every time, zero without jitter; 10,000 schedules sharing a cron
-- spread evenly over the window (each minute within 15 % of the mean).
begin;
select plan(6);

select is(jq._schedule_offset('d', '2026-03-01 08:00Z', 600), jq._schedule_offset('d', '2026-03-01 08:00Z', 600),
          'the same (name, slot) gives the same offset');
select isnt(jq._schedule_offset('d', '2026-03-01 08:00Z', 600), jq._schedule_offset('d', '2026-03-02 08:00Z', 600),
            'another slot gives another offset');
select is(jq._schedule_offset('d', '2026-03-01 08:00Z', 0), interval '0', 'no jitter: no offset');
select is(jq._schedule_offset('d', '2026-03-01 08:00Z', 600),
          (('x' || substr(md5('d@' || extract(epoch from timestamptz '2026-03-01 08:00Z')::bigint), 1, 12))::bit(48)::bigint
           % 600000) * interval '1 millisecond',
          'the documented formula: md5(name @ unix seconds), first 48 bits, modulo jitter in ms');
create temp table offsets as
select extract(epoch from jq._schedule_offset('digest:user-' || g, '2026-03-01 08:00Z', 600)) as s
  from generate_series(1, 10000) g;
select ok((select min(s) >= 0 and max(s) < 600 from offsets), 'every offset is in [0, 600) seconds');
select ok((select bool_and(n between 850 and 1150)
             from (select count(*) as n from offsets group by floor(s / 60)) per_minute),
          'each of the ten minutes gets 1,000 +- 15 % of 10,000 jobs');

select * from finish();
rollback;
