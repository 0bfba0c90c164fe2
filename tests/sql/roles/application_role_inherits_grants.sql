-- An application role granted jq_producer gets exactly the producer's rights.
begin;
select plan(3);

create role jq_test_app nologin;
grant jq_producer to jq_test_app;
set local role jq_test_app;

select is((select count(*)::int from jq.jq_enqueue('email.send', '{}', 'roles_q')), 1,
          'the application role can enqueue through jq_producer');
select throws_ok('select * from jq.jobs', '42501', null, 'but cannot read jq.jobs');
select throws_ok($$select * from jq.jq_claim('roles_q', 'w1')$$, '42501', null, 'nor claim');

reset role;
select * from finish();
rollback;
