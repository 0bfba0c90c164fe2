-- jq_maintain returns a jsonb summary: skipped, partitions_created,
-- partitions_dropped, keys_purged, leases_reaped, lanes_purged, jobs_rescued, workers_purged,
-- dead_purged, audit_purged.
-- With nothing to do, every
-- count is 0.
begin;
select plan(4);

-- Wait for any other session running jq_maintain (pg_prove -j): it would
-- make our calls skip. The lock is re-entrant, so our own calls proceed.
select pg_advisory_xact_lock(hashtext('jq.maintain')) \gset

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq.jq_maintain() as r1 \gset
select jq.jq_maintain() as r2 \gset

select is((select array_agg(k order by k) from jsonb_object_keys(:'r1'::jsonb) k),
          array['audit_purged', 'dead_purged', 'jobs_rescued', 'keys_purged', 'lanes_purged', 'leases_reaped',
                'partitions_created', 'partitions_dropped', 'skipped', 'workers_purged'],
          'the summary has exactly the ten keys');
select is(:'r1'::jsonb -> 'skipped', 'false'::jsonb, 'the call that did the work says skipped: false');
select is((select count(*)::int from jsonb_each(:'r1'::jsonb) e where e.key <> 'skipped' and jsonb_typeof(e.value) = 'number'), 9,
          'the nine counts are numbers');
select is(:'r2'::jsonb, '{"skipped": false, "partitions_created": 0, "partitions_dropped": 0, "keys_purged": 0, "leases_reaped": 0,
                       "lanes_purged": 0, "jobs_rescued": 0, "workers_purged": 0,
                       "dead_purged": 0, "audit_purged": 0}'::jsonb,
          'a call with nothing to do reports zeros');

select * from finish();
rollback;
