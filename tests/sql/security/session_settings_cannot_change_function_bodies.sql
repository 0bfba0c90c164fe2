-- Any role may change its own session's settings. jq's public functions pin
-- the ones that change how their bodies read: search_path (tested in
-- roles/public_functions_are_security_definer.sql) and
-- standard_conforming_strings, which, set off, turned the regular
-- expressions of error_fingerprint and jq_enqueue_many's checks into other
-- expressions (dead letters fell out of their groups, valid batches were
-- refused as "jobs holds an invalid element").
begin;
select plan(4);

select is_empty(
    $$select oid::regprocedure from pg_proc
       where pronamespace = 'jq'::regnamespace and proname like 'jq\_%'
         and not coalesce('standard_conforming_strings=on' = any(proconfig), false)$$,
    'every jq_* function sets standard_conforming_strings = on');

set local standard_conforming_strings = off;
set local client_min_messages = error;  -- the nonstandard-escape warnings of the test's own literals
set local role jq_producer;
select count(*) as enqueued from jq.jq_enqueue_many(
    '[{"type": "scs", "queue": "scs", "run_at": "2026-01-01T00:00:00Z"}]') \gset
reset role;
select is(:enqueued::integer, 1, 'jq_enqueue_many accepts an ISO run_at with standard_conforming_strings off');

-- A dead job's fingerprint is computed by jq_fail, as the worker calls it.
select jq_test.enqueue_and_claim('w1', 'scs_dead', 'scs', 1) as job_id \gset
set local role jq_worker;
select status from jq.jq_fail(:'job_id', 'w1', 'Timeout after 30s for inv_12345 at 2026-01-01T00:00:00Z') \gset
reset role;
select is(:'status'::text, 'dead', 'the job is dead');
reset standard_conforming_strings;
select is((select count(*) from jq.jq_dead_groups(p_type => 'scs_dead') g
            where g.error = 'Timeout after 30s for ? at ?'), 1::bigint,
          'its error is grouped as with the standard setting');

select * from finish();
rollback;
