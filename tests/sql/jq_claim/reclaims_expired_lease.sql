-- Invariant 3: a job whose lease expired is claimable again by another
-- worker, and the expired lease counted as an attempt.
begin;
select plan(7);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'noop', 'claim_expired', 3, '1 minute') as job \gset

select jq_test.advance('61 seconds') \gset
create temp table reclaimed as select * from jq.jq_claim('claim_expired', 'w2', 10, '1 minute');

select results_eq($$select id from reclaimed$$, array[:'job'::uuid], 'another worker claims the expired job');
select is((select attempts from reclaimed), 2::smallint, 'the expired lease counted: this is attempt 2');
select matches((select last_error from reclaimed), 'lease expired',
               'the claimed row says the previous attempt''s lease expired');
select results_eq($$select locked_by, locked_until from jq.jobs where id = $$ || quote_literal(:'job'),
                  $$values ('w2'::text, '2030-01-01 12:02:01Z'::timestamptz)$$,
                  'the new worker holds a fresh lease');

-- And again: the third attempt is the last one.
select jq_test.advance('61 seconds') \gset
select is((select attempts from jq.jq_claim('claim_expired', 'w3', 10, '1 minute')), 3::smallint,
          'after a second expiry a third worker gets attempt 3');
select is((select locked_by from jq.jobs where id = :'job'), 'w3', 'w3 holds it');
select is((select count(*)::int from jq.dead_jobs where id = :'job'), 0, 'it is not dead yet');

select * from finish();
rollback;
