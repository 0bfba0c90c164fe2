-- "Timeout after 30s for inv_1" and "... inv_2" are one group of two, under
-- the fingerprint "Timeout after 30s for ?"; another error is its own group.
-- Largest group first.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.bury('invoice.send', 'HTTP 503 from upstream') \gset
select jq_test.advance('1 minute') as t1 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.advance('1 minute') as t2 \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_2') \gset

select results_eq(
    'select type, error, count, first_failed_at, last_failed_at from jq.jq_dead_groups()',
    format('values (%L::text, %L::text, 2::bigint, %L::timestamptz, %L::timestamptz),
                   (%L, %L, 1, %L, %L)',
           'invoice.send', 'Timeout after 30s for ?', :'t1', :'t2',
           'invoice.send', 'HTTP 503 from upstream', :'t0', :'t0'),
    'two groups, the timeouts counted together, largest first');
select is((select sample_error from jq.jq_dead_groups() where error = 'Timeout after 30s for ?'),
          'Timeout after 30s for inv_2', 'a group shows its latest raw message as a sample');
select is((select error_fingerprint from jq.dead_jobs where last_error = 'Timeout after 30s for inv_1'),
          jq.error_fingerprint('Timeout after 30s for inv_1'),
          'each dead job stores jq.error_fingerprint of its raw error, the key it is grouped by');
select is((select sum(count)::int from jq.jq_dead_groups()), (select count(*)::int from jq.dead_jobs),
          'every dead job is in exactly one group');

select * from finish();
rollback;
