-- jq_maintain purges idempotency keys whose window is over and whose job has
-- left jq.jobs; keys of live jobs and keys still inside their window stay.
begin;
select plan(6);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
-- succeeded at t0: window over at t0 + 24 h
select job_id as done from jq.jq_enqueue('a', '{}', 'keys_q', 0, null, 5, 'k-done') \gset
select count(*) from jq.jq_claim('keys_q', 'w1', 1, '5 minutes', array['a']) \gset
select count(*) from jq.jq_complete(array[:'done'::uuid], 'w1') \gset
-- dead at t0: window over at t0 + 24 h
select job_id as dead from jq.jq_enqueue('b', '{}', 'keys_q', 0, null, 1, 'k-dead') \gset
select count(*) from jq.jq_claim('keys_q', 'w1', 1, '5 minutes', array['b']) \gset
select count(*) from jq.jq_fail(:'dead', 'w1', 'boom') \gset
-- still pending, and running with a long lease: live jobs
select job_id as pending from jq.jq_enqueue('c', '{}', 'keys_q', 0, '2030-03-01Z', 5, 'k-pending') \gset
select job_id as running from jq.jq_enqueue('d', '{}', 'keys_q', 0, null, 5, 'k-running') \gset
select count(*) from jq.jq_claim('keys_q', 'w1', 1, '7 days', array['d']) \gset
-- succeeded 20 h later: window over at t0 + 44 h
select job_id as recent from jq.jq_enqueue('e', '{}', 'keys_q', 0, null, 5, 'k-recent') \gset
select count(*) from jq.jq_claim('keys_q', 'w1', 1, '7 days', array['e']) \gset
select jq_test.advance('20 hours') \gset
select count(*) from jq.jq_complete(array[:'recent'::uuid], 'w1') \gset

select jq_test.set_now(:'t0'::timestamptz + interval '25 hours') \gset
select jq.jq_maintain() as r \gset

select is((:'r'::jsonb ->> 'keys_purged')::int, 2, 'two keys purged');
select set_eq($$select idempotency_key from jq.idempotency_keys where queue = 'keys_q'$$,
              $$values ('k-pending'), ('k-running'), ('k-recent')$$,
              'the keys of the succeeded and the dead job are gone; live jobs and the recent one keep theirs');
select results_eq(
    $$select duplicate from jq.jq_enqueue('a', '{}', 'keys_q', 0, null, 5, 'k-done')$$,
    $$values (false)$$,
    'the purged key makes a new job');
select results_eq(
    format($$select job_id, duplicate from jq.jq_enqueue('e', '{}', 'keys_q', 0, null, 5, 'k-recent')$$),
    format('values (%L::uuid, true)', :'recent'),
    'the key inside its window still returns the original job');
select results_eq(
    $$select job_id, duplicate from jq.jq_enqueue('c', '{}', 'keys_q', 0, null, 5, 'k-pending')$$,
    format('values (%L::uuid, true)', :'pending'),
    'the live job''s key, past its first 24 hours, still returns it');
select is((select (jq.jq_maintain() ->> 'keys_purged')::int), 0, 'a second call purges nothing more');

select * from finish();
rollback;
