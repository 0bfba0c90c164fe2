-- jq_maintain reaps expired leases in every queue, counting the lost attempt:
-- on the last attempt the job is dead-lettered with an error saying so,
-- otherwise it is pending again. Live leases are left alone. Each job here is
-- the only one its worker holds, so the lost attempt is blamed on it (a worker
-- holding several: tests/sql/jq_claim/expired_leases_of_a_crowd_are_spared.sql).
begin;
select plan(9);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
select jq_test.enqueue_and_claim('w1', 'a', 'reap_a', 1, '1 minute') as last_try \gset
select jq_test.enqueue_and_claim('w2', 'a', 'reap_b', 3, '1 minute') as retry \gset
select jq_test.enqueue_and_claim('w3', 'a', 'reap_a', 3, '1 hour') as alive \gset
select jq_test.advance('2 minutes') \gset

select jq.jq_maintain() as r \gset
select is((:'r'::jsonb ->> 'leases_reaped')::int, 2, 'two expired leases reaped, in two queues');

select is((select status from jq.jq_status(:'last_try')), 'dead', 'the job on its last attempt is dead');
select matches((select last_error from jq.dead_jobs where id = :'last_try'), '^lease expired',
               'its error says the lease expired');
select results_eq(
    format('select status, attempts, locked_by from jq.jobs where id = %L', :'retry'),
    $$values ('pending'::text, 1::smallint, null::text)$$,
    'the job with attempts left is pending again, the lost attempt counted');
select is((select status from jq.jq_status(:'retry')), 'failed_retrying', 'jq_status says failed_retrying');
select results_eq(
    format('select status, locked_by from jq.jobs where id = %L', :'alive'),
    $$values ('processing'::text, 'w3'::text)$$,
    'the job whose lease is still valid keeps running');

select is_empty(format('select * from jq.jq_complete(array[%L]::uuid[], %L)', :'retry', 'w2'),
                'the first worker''s late completion is refused');
select is_empty('select * from jq.jq_claim(''reap_a'', ''w4'', 10)', 'the dead job is never claimed again');
select results_eq($$select id, attempts from jq.jq_claim('reap_b', 'w4', 10)$$,
                  format('values (%L::uuid, 2::smallint)', :'retry'),
                  'the reaped job is claimed again for its second attempt');

select * from finish();
rollback;
