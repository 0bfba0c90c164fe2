-- Any raw message of a group selects the whole group: jq_retry_dead
-- fingerprints its error argument.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('invoice.send', 'Timeout after 30s for inv_' || i)) from generate_series(1, 4) i \gset
select jq_test.bury('invoice.send', 'HTTP 503 from upstream') \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for inv_999'), 4,
          'a message of the group that no job had requeues the whole group');
select is((select count(*)::int from jq.jobs where type = 'invoice.send'), 4, 'four jobs are back in jq.jobs');
select is((select last_error from jq.dead_jobs), 'HTTP 503 from upstream', 'only the other group is still dead');

select * from finish();
rollback;
