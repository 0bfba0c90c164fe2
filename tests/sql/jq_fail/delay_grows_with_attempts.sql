-- The retry delay jq_fail applies grows with the attempt number: the delay
-- after attempt 6 (about 64 s) is always longer than after attempt 1 (about 2 s).
begin;
select plan(3);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select job_id as job from jq.jq_enqueue('flaky', '{}', 'fail_grow', 0, null, 10) \gset

create temp table delays (attempt int, delay interval);
do $$
declare
    v_job uuid;
    v_claimed int;
    v_next timestamptz;
begin
    for i in 1 .. 6 loop
        select c.id, c.attempts into v_job, v_claimed from jq.jq_claim('fail_grow', 'w1', 1) c;
        select f.next_attempt_at into v_next from jq.jq_fail(v_job, 'w1', 'flaky') f;
        insert into delays values (v_claimed, v_next - jq._now());
        perform jq_test.set_now(v_next);
    end loop;
end
$$;

select results_eq($$select attempt from delays order by attempt$$, array[1, 2, 3, 4, 5, 6],
                  'the job was retried at each next_attempt_at, attempts 1 to 6');
select ok((select delay from delays where attempt = 6) > (select delay from delays where attempt = 1),
          'the delay after attempt 6 is longer than after attempt 1');
select ok((select bool_and(extract(epoch from delay) between 0.75 * 2 ^ attempt - 0.001
                                                         and 1.25 * 2 ^ attempt + 0.001)
             from delays),
          'every delay is 2^attempts seconds +- 25 %');

select * from finish();
rollback;
