-- jq_worker_register stores who the worker is and answers gone_after; a
-- second registration of the same name from another process (a restart: a
-- new pid) replaces the row and hands back, at once, the jobs the previous
-- process still held; the same process registering again keeps them.
begin;
select plan(7);

select jq_test.set_now('2030-03-01 09:00Z') as t0 \gset
select * from jq.jq_worker_register('reg-w1', '{"reg_q": 4, "urgent": 1}', 'host-a', 4242, '0.4.0') \gset r_
select is(:'r_worker'::text, 'reg-w1', 'answers the worker name');
select is(:'r_gone_after'::interval, interval '15 seconds', 'and the default gone_after, 15 s');
select results_eq(
    $$select host, pid, queues, version, started_at, last_seen, gone_at from jq.workers where name = 'reg-w1'$$,
    $$values ('host-a'::text, 4242, '{"reg_q": 4, "urgent": 1}'::jsonb, '0.4.0'::text,
              '2030-03-01 09:00Z'::timestamptz, '2030-03-01 09:00Z'::timestamptz, null::timestamptz)$$,
    'the row holds host, pid, queues and slots, version, started_at and last_seen');

select jq_test.enqueue_and_claim('reg-w1', 'work', 'reg_q', 5) as job \gset
select jq_test.advance('1 minute') \gset
select count(*) from jq.jq_worker_register('reg-w1', '{"reg_q": 4, "urgent": 1}', 'host-a', 4242, '0.4.0') \gset
select is((select locked_by from jq.jobs where id = :'job'), 'reg-w1',
          'the same process registering again keeps its job');
select * from jq.jq_worker_register('reg-w1', '{"reg_q": 8}', 'host-a', 4343, '0.4.0') \gset r2_
select results_eq(
    $$select pid, queues, started_at from jq.workers where name = 'reg-w1'$$,
    $$values (4343, '{"reg_q": 8}'::jsonb, '2030-03-01 09:01Z'::timestamptz)$$,
    'registering again replaces the row');
select results_eq(
    format('select status, locked_by, attempts from jq.jobs where id = %L', :'job'),
    $$values ('pending'::text, null::text, 1::smallint)$$,
    'the job the previous process held is pending again, its attempt counted (it was alone)');
select matches((select last_error from jq.jobs where id = :'job'), '^worker gone: worker "reg-w1"',
               'its error says its worker was gone');

select * from finish();
rollback;
