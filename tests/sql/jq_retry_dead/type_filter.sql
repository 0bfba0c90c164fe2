-- p_type limits the requeue to one job type; null means every type. With a
-- null error every group of the type is requeued.
begin;
select plan(4);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('invoice.send', 'Timeout after 30s for inv_1') \gset
select jq_test.bury('email.send', 'Timeout after 30s for msg_1') \gset
select jq_test.bury('email.send', 'SMTP 550 mailbox unavailable') \gset
select jq_test.bury('sms.send', 'Timeout after 30s for sms_1') \gset

select is(jq.jq_retry_dead('email.send'), 2, 'a type with no error requeues all its groups');
select is((select count(*)::int from jq.dead_jobs where type = 'email.send'), 0, 'no email.send job is still dead');
select is(jq.jq_retry_dead(null, 'Timeout after 30s for ?'), 2,
          'no type with an error requeues that error in every type');
select is((select count(*)::int from jq.dead_jobs), 0, 'nothing is left dead');

select * from finish();
rollback;
