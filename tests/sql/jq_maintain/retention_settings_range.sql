-- dead_retention (default 30 days) and audit_retention (default 90 days,
-- null = forever) are between 1 hour and 10 years; jq_admin may change them.
begin;
select plan(6);

select results_eq('select dead_retention, audit_retention from jq.settings',
                  $$values (interval '30 days', interval '90 days')$$, 'the defaults');
select throws_ok($$update jq.settings set dead_retention = '59 minutes'$$, '23514', null, 'dead_retention under an hour');
select throws_ok($$update jq.settings set dead_retention = '10 years 1 day'$$, '23514', null, 'dead_retention over 10 years');
select throws_ok($$update jq.settings set dead_retention = null$$, '23502', null, 'dead_retention null');
select throws_ok($$update jq.settings set audit_retention = '1 minute'$$, '23514', null, 'audit_retention under an hour');

set local role jq_admin;
update jq.settings set dead_retention = '7 days', audit_retention = '1 year';
reset role;
select results_eq('select dead_retention, audit_retention from jq.settings',
                  $$values (interval '7 days', interval '1 year')$$, 'jq_admin may set both');

select * from finish();
rollback;
