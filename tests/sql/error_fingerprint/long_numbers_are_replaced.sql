-- Numbers of four digits or more (ids, counts, ports, byte sizes) become ?.
begin;
select plan(4);

select is(jq.error_fingerprint('Order 123456789 failed'), 'Order ? failed', 'a long number becomes ?');
select is(jq.error_fingerprint('Order 1234 failed'), 'Order ? failed', 'a four-digit number becomes ?');
select is(jq.error_fingerprint('row id=98765 is locked'), 'row id=? is locked', 'a number after = becomes ?');
select is(jq.error_fingerprint('Order 123456789 failed'), jq.error_fingerprint('Order 987654321 failed'),
          'errors differing only in a long number share a fingerprint');

select * from finish();
rollback;
