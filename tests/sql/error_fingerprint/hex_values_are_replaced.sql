-- Hex literals and hashes (words mixing digits and a-f) become ?.
begin;
select plan(2);

select is(jq.error_fingerprint('segfault at 0xdeadbeef'), 'segfault at ?', 'a 0x literal');
select is(jq.error_fingerprint('object a3f9c2d1e4b5 missing'), 'object ? missing', 'a hex hash');

select * from finish();
rollback;
