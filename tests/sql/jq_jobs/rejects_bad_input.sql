-- Bad input is refused with 22023 and a message naming what is wrong: an
-- unknown filter key, a value of the wrong type, an unknown status word, a
-- malformed time or id prefix, a limit outside 1..1000, a cursor jq_jobs did
-- not make. Listing changes nothing, so nothing else is checked.
begin;
select plan(15);

select throws_ok($$select * from jq.jq_jobs('{"bogus": 1}')$$, '22023', 'unknown filter key bogus', 'an unknown key');
select throws_ok($$select * from jq.jq_jobs('{"error": "x"}')$$, '22023', 'unknown filter key error',
                 'error is a key of the dead-letter actions only');
select throws_ok($$select * from jq.jq_jobs('[1]')$$, '22023', 'filter must be a JSON object, not array', 'a filter that is not an object');
select throws_ok($$select * from jq.jq_jobs('{"queue": 5}')$$, '22023', 'filter key queue must be a non-empty string', 'a number for a text key');
select throws_ok($$select * from jq.jq_jobs('{"type": ""}')$$, '22023', 'filter key type must be a non-empty string', 'an empty text');
select throws_ok($$select * from jq.jq_jobs('{"status": "pending"}')$$, '22023', 'filter key status: ''pending'' is not a job status',
                 'a status word jq_status does not use');
select throws_ok($$select * from jq.jq_jobs('{"status": []}')$$, '22023',
                 'filter key status must be a status word or a non-empty array of them', 'an empty status array');
select throws_ok($$select * from jq.jq_jobs('{"payload": [1]}')$$, '22023',
                 'filter key payload must be a JSON object (matched with @>)', 'a payload that is not an object');
select throws_ok($$select * from jq.jq_jobs('{"created_after": "yesterday-ish"}')$$, '22023',
                 'filter key created_after is not a timestamp: yesterday-ish', 'a malformed time');
select throws_ok($$select * from jq.jq_jobs('{"id_prefix": "xyz"}')$$, '22023',
                 'filter key id_prefix must be the leading hex digits of a job id, not xyz', 'an id prefix that is not hex');
select throws_ok($$select * from jq.jq_jobs('{"id_prefix": "0123456789abcdef0123456789abcdef0"}')$$, '22023', null,
                 'an id prefix longer than an id');
select throws_ok($$select * from jq.jq_jobs('{}', 0)$$, '22023', 'limit 0 is out of range', 'limit 0');
select throws_ok($$select * from jq.jq_jobs('{}', 1001)$$, '22023', 'limit 1001 is out of range', 'limit 1001');
select throws_ok($$select * from jq.jq_jobs('{}', null)$$, '22023', 'limit null is out of range', 'a null limit');
select throws_ok($$select * from jq.jq_jobs('{}', 50, '123.abc')$$, '22023', 'cursor ''123.abc'' is not one jq_jobs returned',
                 'a cursor jq_jobs did not make');

select * from finish();
rollback;
