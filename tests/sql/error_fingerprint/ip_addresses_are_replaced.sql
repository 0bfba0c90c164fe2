-- IPv4 addresses, with or without a port, become ?.
begin;
select plan(3);

select is(jq.error_fingerprint('connect to 10.0.0.12:5432 refused'), 'connect to ? refused', 'an address with a port');
select is(jq.error_fingerprint('connect to 192.168.1.1 refused'), 'connect to ? refused', 'an address without a port');
select is(jq.error_fingerprint('connect to 10.0.0.12:5432 refused'), jq.error_fingerprint('connect to 10.0.3.7:25 refused'),
          'different addresses and ports share a fingerprint');

select * from finish();
rollback;
