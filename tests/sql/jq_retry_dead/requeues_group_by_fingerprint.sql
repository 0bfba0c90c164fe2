-- jq_retry_dead(type, fingerprint) moves every dead job of that group back
-- to jq.jobs as a fresh queued job (attempts 0, ready now), keeps what was
-- enqueued, and returns the count. Other groups stay dead.
begin;
select plan(8);

select jq_test.set_now('2030-01-15 08:00Z') as t0 \gset
create temp table buried as
select jq_test.bury(type, error, 'billing', jsonb_build_object('error', error), 7) as id, type, error
  from (values ('invoice.send', 'Timeout after 30s for inv_1'),
               ('invoice.send', 'Timeout after 30s for inv_2'),
               ('invoice.send', 'Timeout after 30s for inv_3'),
               ('invoice.send', 'HTTP 503 from upstream'),
               ('email.send', 'Timeout after 30s for msg_1')) v(type, error);
select jq_test.advance('1 hour') as t1 \gset

select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?'), 3, 'three jobs requeued');
select is_empty(
    $$select id from buried where type = 'invoice.send' and error like 'Timeout%'
      intersect select id from jq.dead_jobs$$,
    'they are gone from jq.dead_jobs');
select set_eq(
    $$select id, queue, type, payload, priority, run_at, status, attempts, max_attempts, locked_by, locked_until
        from jq.jobs$$,
    format($$select id, 'billing'::text as queue, type, jsonb_build_object('error', error) as payload,
                    7::smallint as priority, %L::timestamptz as run_at, 'pending'::text as status,
                    0::smallint as attempts, 1::smallint as max_attempts, null::text as locked_by,
                    null::timestamptz as locked_until
               from buried where type = 'invoice.send' and error like 'Timeout%%'$$, :'t1'),
    'each is pending in jq.jobs with attempts reset to 0, ready now, with its queue, payload, priority, max_attempts');
select is((select array_agg(distinct s.status) from buried b cross join jq.jq_status(b.id) s
            where b.error like 'Timeout after 30s for inv%'), array['queued'], 'jq_status says queued');
select results_eq(
    'select type, error, count from jq.jq_dead_groups() order by type',
    $$values ('email.send'::text, 'Timeout after 30s for ?'::text, 1::bigint),
             ('invoice.send', 'HTTP 503 from upstream', 1)$$,
    'the other groups are still dead');
select is_empty($$select 1 from jq.jq_dead_groups() where type = 'invoice.send' and error = 'Timeout after 30s for ?'$$,
                'the requeued group no longer shows');

select results_eq(
    $$select id, attempts from jq.jq_claim('billing', 'w2', 10) order by id$$,
    $$select id, 1::smallint from buried where type = 'invoice.send' and error like 'Timeout%' order by id$$,
    'a worker claims exactly the requeued jobs, each on its first attempt again');
select is(jq.jq_retry_dead('invoice.send', 'Timeout after 30s for ?'), 0, 'a second call finds nothing left to requeue');

select * from finish();
rollback;
