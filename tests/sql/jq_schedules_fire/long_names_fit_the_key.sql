-- Names are at most 128 characters, so the key schedule:<name>:<slot> (at
-- most 158) always fits the 255-character idempotency key limit.
begin;
select plan(2);

select jq_test.set_now('2026-03-01 00:00Z') \gset
select count(*) from jq.jq_schedule_put(repeat('n', 128), '0 8 * * *', 'UTC', 't', p_next_run_at => '2026-03-01 08:00Z') \gset
select jq_test.set_now('2026-03-01 08:00:01Z') \gset

select results_eq(
    format($$select schedules, jobs from jq.jq_schedules_fire(array[%L], '{2026-03-01 08:00Z}', '{2026-03-01 08:00Z}',
                                                              '{2026-03-02 08:00Z}')$$, repeat('n', 128)),
    $$values (1, 1)$$, 'a 128-character name fires');
select is((select char_length(idempotency_key) from jq.jobs), 158, 'its key is 158 characters');

select * from finish();
rollback;
