-- Every call writes one audit row: action retry_dead, the filter it was
-- given as target, the number requeued (0 included), the actor named.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 503 from hooks.example.com for ' || i))
  from generate_series(1000, 1002) i \gset
select set_config('jq.actor', 'token:ops-alice', true) \gset

select is(jq.jq_retry_dead('deliver_webhook', 'HTTP 503', '2030-01-01Z', 10), 3, 'three requeued');
select results_eq($$select actor, action, target, rows from jq.audit_log$$,
                  $$values ('token:ops-alice'::text, 'retry_dead'::text,
                            '{"type": "deliver_webhook", "error": "HTTP 503", "since": "2030-01-01T00:00:00+00:00", "limit": 10}'::jsonb,
                            3::bigint)$$,
                  'one row: who, what, the filter, how many');
select jq.jq_retry_dead('nothing.here') \gset
select results_eq($$select target, rows from jq.audit_log order by id desc limit 1$$,
                  $$values ('{"type": "nothing.here"}'::jsonb, 0::bigint)$$,
                  'a call that matched nothing is recorded with 0 rows');

select * from finish();
rollback;
