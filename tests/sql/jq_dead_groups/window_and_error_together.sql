-- since and error narrow together: counts, first and last failure and the
-- sample are those of the window's jobs.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 503 from hooks.example.com for 1') \gset
select jq_test.advance('2 hours') \gset
select jq_test.bury('deliver_webhook', 'RuntimeError: HTTP 503 from hooks.example.com for 2') \gset

select results_eq($$select count, first_failed_at, sample_error
                      from jq.jq_dead_groups('2030-01-15 09:00Z', null, 'HTTP 503')$$,
                  $$values (1::bigint, '2030-01-15 10:00Z'::timestamptz, 'RuntimeError: HTTP 503 from hooks.example.com for 2'::text)$$,
                  'only the job in the window counts');
select is_empty($$select 1 from jq.jq_dead_groups('2030-01-15 09:00Z', null, 'for 1')$$,
                'the sample is the window''s newest job: the older message no longer matches');

select * from finish();
rollback;
