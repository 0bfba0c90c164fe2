-- The attack: a role holding only jq_worker sets jq.now far ahead and claims,
-- taking a job whose live lease another worker holds (it then runs twice at
-- once). With the test clock off, the lease holds, for every role.
begin;
select plan(4);

update jq.settings set allow_test_clock = false;
select jq_test.enqueue_and_claim('honest', 'sec_lease', 'sec_lease') as job_id \gset

set local role jq_worker;
set local jq.now = '2100-01-01 00:00Z';
select count(*) as stolen_worker from jq.jq_claim('sec_lease', 'thief', 10, '5 minutes') \gset
select count(*) as beat from jq.jq_heartbeat(array[:'job_id'::uuid], 'thief', '5 minutes') h
 where h.state = 'ok' \gset
reset role;
set local role jq_admin;
set local jq.now = '2100-01-01 00:00Z';
select count(*) as stolen_admin from jq.jq_claim('sec_lease', 'thief', 10, '5 minutes') \gset
reset role;
reset jq.now;

select is(:stolen_worker::integer, 0, 'jq_worker under jq.now = 2100 claims no job with a live lease');
select is(:stolen_admin::integer, 0, 'jq_admin under jq.now = 2100 claims none either');
select is(:beat::integer, 0, 'the thief cannot heartbeat the honest worker''s lease');
select is((select locked_by from jq.jobs where id = :'job_id'), 'honest', 'the lease stays with its holder');

select * from finish();
rollback;
