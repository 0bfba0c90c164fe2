-- A bucket outside 1 second .. 31 days, a start in the future, or a window of
-- more than 10000 buckets is refused (22023) with a message naming it.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset

select throws_ok($$select * from jq.jq_throughput(null, interval '0 seconds')$$, '22023',
                 'p_bucket must be between 1 second and 31 days, got 00:00:00', 'a zero bucket is refused');
select throws_ok($$select * from jq.jq_throughput(null, null)$$, '22023',
                 'p_bucket must be between 1 second and 31 days, got null', 'a null bucket is refused');
select throws_like($$select * from jq.jq_throughput('2030-01-16 08:00Z', '1 hour')$$,
                   'p_since must not be in the future%', 'a start in the future is refused');
select throws_like($$select * from jq.jq_throughput('2029-01-15 08:00Z', '1 minute')$$,
                   '%more than 10000 buckets%', 'too many buckets are refused');

select * from finish();
rollback;
