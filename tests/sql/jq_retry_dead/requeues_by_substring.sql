-- The requirements' example: jq_retry_dead('deliver_webhook', 'HTTP 503')
-- requeues every job of the group whose error reads 'RuntimeError: HTTP 503
-- from hooks.example.com for ?', and leaves the other groups dead.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 503 from hooks.example.com for ' || i))
  from generate_series(1000, 1005) i \gset
select jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 404 from hooks.example.com for 1') \gset
select jq_test.bury('send_email', 'RuntimeError: HTTP 503 from mail.example.com') \gset

select is(jq.jq_retry_dead('deliver_webhook', 'HTTP 503'), 6, 'the six jobs of the group are requeued');
select is((select count(*)::int from jq.jobs where type = 'deliver_webhook' and status = 'pending' and attempts = 0), 6,
          'they are back in jq.jobs, ready, attempts reset');
select results_eq($$select type, last_error from jq.dead_jobs order by type$$,
                  $$values ('deliver_webhook'::text, 'RuntimeError: HTTP 404 from hooks.example.com for 1'::text),
                           ('send_email', 'RuntimeError: HTTP 503 from mail.example.com')$$,
                  'the 404 group and the other type stay dead');
select is(jq.jq_retry_dead('deliver_webhook', 'HTTP 503'), 0, 'a second call finds nothing');

select * from finish();
rollback;
