-- jq_complete restarts the idempotency window: the key's expires_at becomes
-- completion time + window, so the key is held for the window after the job
-- finished, however long it waited before.
begin;
select plan(4);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select job_id as job from jq.jq_enqueue('t', '{}', 'complete_key', 0, null, null, 'pay-42') \gset
select count(*) from jq.jq_claim('complete_key', 'w1', 1, '1 day') \gset

select jq_test.advance('10 hours') \gset
select results_eq(format($$select * from jq.jq_complete(array[%L]::uuid[], 'w1')$$, :'job'), array[:'job'::uuid],
                  'completed ten hours after enqueue');
select is((select expires_at from jq.idempotency_keys where queue = 'complete_key' and idempotency_key = 'pay-42'),
          '2030-01-02 22:00Z'::timestamptz, 'the key now expires 24 hours after completion');

update jq.settings set idempotency_window = '1 hour';
select job_id as job2 from jq.jq_enqueue('t', '{}', 'complete_key', 0, null, null, 'pay-43') \gset
select count(*) from jq.jq_claim('complete_key', 'w1', 1) \gset
select count(*) from jq.jq_complete(array[:'job2'::uuid], 'w1') \gset
select is((select expires_at from jq.idempotency_keys where queue = 'complete_key' and idempotency_key = 'pay-43'),
          '2030-01-01 23:00Z'::timestamptz, 'the window comes from jq.settings');
select is((select job_id from jq.idempotency_keys where queue = 'complete_key' and idempotency_key = 'pay-42'),
          :'job'::uuid, 'the key still points at the finished job');

select * from finish();
rollback;
