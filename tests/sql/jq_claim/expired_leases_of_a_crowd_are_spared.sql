-- Leases that expire in a worker holding several jobs cost none of them an
-- attempt (any of them may have killed it): each is pending again with its
-- attempt given back and orphaned once more, even on its last attempt. The
-- one job of a worker holding nothing else is blamed as before.
begin;
select plan(4);

select jq_test.set_now('2030-03-01 09:00Z') \gset
select jq_test.enqueue_ready(3, 'work', 'crowd_q', 1) as crowd \gset
select count(*) from jq.jq_claim('crowd_q', 'crowd-w1', 3, '1 minute') \gset
select jq_test.enqueue_and_claim('crowd-w2', 'work', 'crowd_alone', 1, '1 minute') as alone \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq._reap_expired('crowd_q', jq._now()) \gset
select count(*) from jq._reap_expired('crowd_alone', jq._now()) \gset

select results_eq(
    format('select status, attempts::int, orphaned::int from jq.jobs where id = any(%L::uuid[])', :'crowd'),
    $$values ('pending'::text, 0, 1), ('pending', 0, 1), ('pending', 0, 1)$$,
    'the three jobs of the crowd are pending, attempt given back, orphaned once');
select matches((select last_error from jq.jobs where id = (:'crowd'::uuid[])[1]),
               '^lease expired: worker "crowd-w1" was lost holding other jobs too; attempt 1 not counted',
               'their error says why the attempt was not counted');
select is((select count(*)::int from jq.dead_jobs where id = any(:'crowd'::uuid[])), 0,
          'none is dead although each was on its last attempt');
select is((select attempts from jq.dead_jobs where id = :'alone'), 1::smallint,
          'the job alone in its worker is dead after its one attempt');

select * from finish();
rollback;
