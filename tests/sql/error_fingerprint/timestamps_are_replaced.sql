-- ISO 8601 dates and timestamps (T or space, fractions, Z or an offset) become ?.
begin;
select plan(5);

select is(jq.error_fingerprint('deadline 2026-01-15T08:00:00Z passed'), 'deadline ? passed', 'UTC timestamp with T and Z');
select is(jq.error_fingerprint('deadline 2026-01-15 08:00:00.123+02:00 passed'), 'deadline ? passed',
          'timestamp with a space, fraction and offset');
select is(jq.error_fingerprint('deadline 2026-01-15 08:00:00+00 passed'), 'deadline ? passed',
          'timestamp as PostgreSQL prints a timestamptz');
select is(jq.error_fingerprint('no rate for 2026-01-15'), 'no rate for ?', 'a bare date');
select is(jq.error_fingerprint('at 2026-01-15T08:00:00Z'), jq.error_fingerprint('at 2027-12-31T23:59:59.999-05:00'),
          'two different timestamps share a fingerprint');

select * from finish();
rollback;
