-- The requirements' example: "HTTP 503" selects the group whose error reads
-- 'RuntimeError: HTTP 503 from hooks.example.com for ?' (a case-insensitive
-- substring of its fingerprint), and only that group.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('deliver_webhook', E'RuntimeError: HTTP 503 from hooks.example.com for ' || i
                                             || E'\nTraceback (most recent call last):\n  File "hooks.py", line 3'))
  from generate_series(1200, 1204) i \gset
select jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 404 from hooks.example.com for 7') \gset
select jq_test.bury('send_email', 'SMTPError: 421 try later') \gset

select results_eq($$select type, error, count from jq.jq_dead_groups(p_error => 'HTTP 503')$$,
                  $$values ('deliver_webhook'::text, 'RuntimeError: HTTP 503 from hooks.example.com for ?'::text, 5::bigint)$$,
                  'HTTP 503 selects the one group of five');
select results_eq($$select count from jq.jq_dead_groups(null, 'deliver_webhook', 'http 503')$$, $$values (5::bigint)$$,
                  'the substring is compared without case, and the type narrows it');
select is_empty($$select 1 from jq.jq_dead_groups(null, 'send_email', 'HTTP 503')$$,
                'another type has no such group');

select * from finish();
rollback;
