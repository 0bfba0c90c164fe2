-- p_error selects a group by its fingerprint, by a raw message of the group,
-- or by a substring of the fingerprint or of the sample's first line; LIKE
-- metacharacters are plain characters; the traceback below the first line
-- does not count.
begin;
select plan(7);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select jq_test.bury('invoice.send', E'Timeout after 30s for inv_1\n  File "shared.py", line 9') \gset
select jq_test.bury('invoice.send', E'Timeout after 30s for inv_2\n  File "shared.py", line 9') \gset
select jq_test.bury('invoice.send', E'Disk 100% full\n  File "shared.py", line 9') \gset

select results_eq($$select count from jq.jq_dead_groups(p_error => 'Timeout after 30s for ?')$$, $$values (2::bigint)$$,
                  'the fingerprint exactly');
select results_eq($$select count from jq.jq_dead_groups(p_error => 'Timeout after 30s for inv_77')$$, $$values (2::bigint)$$,
                  'a raw message of the group (its fingerprint is the group''s)');
select results_eq($$select count from jq.jq_dead_groups(p_error => 'for inv_2')$$, $$values (2::bigint)$$,
                  'a substring of the newest sample''s first line');
select results_eq($$select error from jq.jq_dead_groups(p_error => '100%')$$, $$values ('Disk 100% full'::text)$$,
                  'a % is a plain character');
select is_empty($$select 1 from jq.jq_dead_groups(p_error => 'Disk_100')$$, 'an _ is a plain character');
select is_empty($$select 1 from jq.jq_dead_groups(p_error => 'shared.py')$$, 'the traceback below the first line is not searched');
select results_eq($$select count(*) from jq.jq_dead_groups(p_error => null)$$, $$values (2::bigint)$$,
                  'a null error lists every group');

select * from finish();
rollback;
