-- Jobs dead-lettered because their lease expired on the last attempt carry
-- an error naming the worker, the attempt and the time; jobs of one type that
-- died that way at different times still form one group.
begin;
select plan(2);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.enqueue_and_claim('w1', 'video.encode', 'dead_q', 1, '1 minute') as a \gset
select jq_test.advance('7 minutes') \gset
select jq_test.enqueue_and_claim('w1', 'video.encode', 'dead_q', 1, '1 minute') as b \gset
select jq_test.advance('1 hour') \gset
select count(*) from jq.jq_claim('dead_q', 'w2', 10) \gset

select is((select count(*)::int from jq.dead_jobs where id in (:'a', :'b') and last_error like 'lease expired%'), 2,
          'both jobs were dead-lettered for an expired lease');
select results_eq(
    $$select type, count from jq.jq_dead_groups(p_type => 'video.encode')$$,
    $$values ('video.encode'::text, 2::bigint)$$,
    'their errors differ only in the time, so they are one group');

select * from finish();
rollback;
