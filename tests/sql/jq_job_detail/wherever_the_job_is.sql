-- A live job shows its payload, keys and (running) lease; a dead one its payload
-- and keys; a finished one its idempotency key only; an unknown id no row.
begin;
select plan(5);

select job_id as queued from jq.jq_enqueue('jd', '{"a": 1}', 'jd_q', p_idempotency_key => 'k-1',
                                          p_concurrency_key => 'acct-1') \gset
select results_eq(
    format($$select location, payload, idempotency_key, concurrency_key, lease_holder
               from jq.jq_job_detail(%L)$$, :'queued'),
    $$values ('live'::text, '{"a": 1}'::jsonb, 'k-1'::text, 'acct-1'::text, null::text)$$,
    'a queued job: live, its payload and keys, no lease');

select count(*) from jq.jq_claim('jd_q', 'w-jd', 1) \gset
select results_eq(
    format($$select lease_holder, lease_until > now() from jq.jq_job_detail(%L)$$, :'queued'),
    $$values ('w-jd'::text, true)$$,
    'a running job: the worker holding its lease, until when');

select count(*) from jq.jq_fail(:'queued', 'w-jd', 'boom', p_discard => true) \gset
select results_eq(
    format($$select location, payload, idempotency_key from jq.jq_job_detail(%L)$$, :'queued'),
    $$values ('dead'::text, '{"a": 1}'::jsonb, 'k-1'::text)$$,
    'a dead job: its payload and key');

select jq_test.enqueue_and_claim('w-jd', 'jd', 'jd_q2') as done \gset
select count(*) from jq.jq_complete(array[:'done'::uuid], 'w-jd') \gset
select results_eq(
    format($$select location, payload from jq.jq_job_detail(%L)$$, :'done'),
    $$values ('history'::text, null::jsonb)$$,
    'a finished job: history, no payload kept');

select is_empty($$select * from jq.jq_job_detail('00000000-0000-0000-0000-000000000000')$$, 'an unknown id: no row');

select * from finish();
rollback;
