-- Numbers of up to three digits, alone or with a short unit, usually say what
-- went wrong (HTTP 503, 30s, 500ms), so they are kept.
begin;
select plan(5);

select is(jq.error_fingerprint('HTTP 503'), 'HTTP 503', 'HTTP 503 is kept');
select isnt(jq.error_fingerprint('HTTP 503'), jq.error_fingerprint('HTTP 404'), 'HTTP 503 and HTTP 404 stay different');
select is(jq.error_fingerprint('Timeout after 30s'), 'Timeout after 30s', 'a duration with a unit is kept');
select is(jq.error_fingerprint('took 500ms, budget 250ms'), 'took 500ms, budget 250ms', 'milliseconds are kept');
select is(jq.error_fingerprint('ECONNRESET'), 'ECONNRESET', 'a message without digits is unchanged');

select * from finish();
rollback;
