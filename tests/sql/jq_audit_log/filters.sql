-- since, action and actor narrow the listing.
begin;
select plan(3);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq._audit('retry_dead', '{}', 1) \gset
select set_config('jq.actor', 'token:ops-alice', true) \gset
select jq_test.advance('1 hour') \gset
select jq._audit('queue_set_fair', '{}', 1) \gset
select jq._audit('retry_dead', '{}', 2) \gset

select results_eq($$select rows from jq.jq_audit_log(p_action => 'retry_dead')$$, $$values (2::bigint), (1)$$, 'by action');
select results_eq($$select action from jq.jq_audit_log(p_actor => 'token:ops-alice')$$,
                  $$values ('retry_dead'::text), ('queue_set_fair')$$, 'by actor');
select results_eq($$select count(*) from jq.jq_audit_log(p_since => '2030-01-15 08:30Z')$$, $$values (2::bigint)$$, 'by time');

select * from finish();
rollback;
