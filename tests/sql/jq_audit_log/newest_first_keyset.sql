-- jq_audit_log lists newest first, p_limit rows a page; the next page starts
-- below the last id of the previous one (keyset, never OFFSET).
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select count(jq._audit('action_' || i, jsonb_build_object('i', i), i)) from generate_series(1, 5) i \gset

select results_eq($$select action, rows from jq.jq_audit_log(p_limit => 2)$$,
                  $$values ('action_5'::text, 5::bigint), ('action_4', 4)$$, 'the first page: the two newest');
select results_eq($$select action from jq.jq_audit_log(p_limit => 2,
                         p_before_id => (select min(id) from jq.jq_audit_log(p_limit => 2)))$$,
                  $$values ('action_3'::text), ('action_2')$$, 'the next page starts below the last id');
select results_eq($$select count(*) from jq.jq_audit_log()$$, $$values (5::bigint)$$, '100 rows a page by default');
select results_eq($$select role = session_user, actor = session_user, target from jq.jq_audit_log(p_limit => 1)$$,
                  $$values (true, true, '{"i": 5}'::jsonb)$$,
                  'each row carries role, actor and target');

select * from finish();
rollback;
