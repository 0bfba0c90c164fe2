-- Single- and double-quoted values become '?' and "?"; the quotes stay, so
-- the message still reads naturally.
begin;
select plan(4);

select is(jq.error_fingerprint($$user 'alice' not found$$), $$user '?' not found$$, 'a single-quoted value');
select is(jq.error_fingerprint('key "abc" missing'), 'key "?" missing', 'a double-quoted value');
select is(jq.error_fingerprint($$duplicate key value violates unique constraint "users_email_key" (email)='a@b.c'$$),
          $$duplicate key value violates unique constraint "?" (email)='?'$$, 'both kinds in one message');
select is(jq.error_fingerprint($$user 'alice' not found$$), jq.error_fingerprint($$user 'bob smith' not found$$),
          'different quoted values share a fingerprint');

select * from finish();
rollback;
