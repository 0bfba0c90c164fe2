-- jq.retry_delay(n), the replaceable backoff policy jq_fail uses: about 2^n
-- seconds with +-25 % jitter, never under 1 second, never over 1 hour, and
-- growing with n whatever the jitter draws.
begin;
select plan(8);

create temp table samples as
select n, extract(epoch from jq.retry_delay(n)) as secs
  from generate_series(1, 12) as n, generate_series(1, 200) as draw;

select is((select min(secs) >= 1 from samples), true, 'retry_delay(1..12) is never under 1 second');
select is((select max(secs) <= 3600 from samples), true, 'retry_delay(1..12) is never over 1 hour');
select is((select count(*)::int from samples where secs not between 0.75 * 2 ^ n - 0.001 and least(1.25 * 2 ^ n, 3600) + 0.001),
          0, 'each delay is within 2^n +- 25 % (capped at 1 hour)');
select ok((select bool_and(jq.retry_delay(8) > jq.retry_delay(2)) from generate_series(1, 200)),
          'retry_delay(8) > retry_delay(2) on every draw');
select ok((select bool_and(lo.min_secs > hi.max_secs)
             from (select n, min(secs) as min_secs from samples group by n) lo
             join (select n, max(secs) as max_secs from samples group by n) hi on hi.n = lo.n - 2
            where lo.n <= 11),
          'the shortest delay for n + 2 exceeds the longest for n (n + 2 <= 11)');
select ok((select bool_and(jq.retry_delay(n) >= interval '1 second') from generate_series(-5, 0) as n),
          'retry_delay of 0 or a negative count is still at least 1 second');
select ok((select count(distinct secs) > 1 from samples where n = 5), 'the delay is jittered');
select is((select array_agg(distinct extract(epoch from jq.retry_delay(n)))
             from generate_series(20, 25) as n, generate_series(1, 20)),
          array[3600]::numeric[], 'from attempt 20 on the delay is the 1-hour cap');

select * from finish();
rollback;
