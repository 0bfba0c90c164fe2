-- A fingerprint is cut at 200 characters. The fingerprint of a long error,
-- as jq_dead_groups shows it, still selects its group in jq_retry_dead (here
-- the cut falls right after a space).
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq_test.bury('import.rows', 'Payload rejected: ' || repeat('x', 181) || ' and then some more text about row ' || i))
  from generate_series(1001, 1003) i \gset

select is((select count from jq.jq_dead_groups()), 3::bigint, 'the three long errors form one group');
select is(jq.jq_retry_dead('import.rows', (select error from jq.jq_dead_groups())), 3,
          'the group''s fingerprint requeues all three');
select is((select count(*)::int from jq.dead_jobs), 0, 'none is left dead');

select * from finish();
rollback;
