-- Jitter: 2,000 schedules sharing a slot with jitter_seconds = 600 get run_at
-- in [slot, slot + 600 s), each exactly slot + jq._schedule_offset(name, slot),
-- spread over the ten minutes.
begin;
select plan(3);

select jq_test.set_now('2026-03-01 06:00Z') \gset
select count(*) from generate_series(1, 2000) g,
       jq.jq_schedule_put('digest:user-' || g, '0 8 * * *', 'Europe/Berlin', 'send_digest', '{}', 'default', 0, 600,
                          null, 'latest', '2026-03-01 07:00Z') \gset
select jq_test.set_now('2026-03-01 07:00:02Z') \gset

select is(jq.jq_schedules_fire_due(5000), 2000, 'one call fires them all');
select is_empty($$select j.idempotency_key from jq.jobs j
                   where j.run_at <> '2026-03-01 07:00Z'::timestamptz
                                     + jq._schedule_offset(substr(j.idempotency_key, 10, char_length(j.idempotency_key) - 30),
                                                           '2026-03-01 07:00Z', 600)
                      or j.run_at < '2026-03-01 07:00Z' or j.run_at >= '2026-03-01 07:10Z'$$,
                'every run_at is slot + its offset, within [slot, slot + 600 s)');
select is((select count(distinct floor(extract(epoch from j.run_at - '2026-03-01 07:00Z') / 60))::int from jq.jobs j), 10,
          'spread over all ten minutes');

select * from finish();
rollback;
