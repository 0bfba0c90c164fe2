-- Runs of whitespace become one space, the ends are trimmed, and a fingerprint
-- is at most 200 characters.
begin;
select plan(4);

select is(jq.error_fingerprint(E'  connection\t\treset   by   peer  '), 'connection reset by peer',
          'whitespace is collapsed and trimmed');
select is(char_length(jq.error_fingerprint(repeat('x', 5000))), 200, 'a long message is cut to 200 characters');
select is(jq.error_fingerprint(repeat('x', 300) || ' a'), jq.error_fingerprint(repeat('x', 300) || ' b'),
          'messages differing only after 200 characters share a fingerprint');
select is(jq.error_fingerprint(repeat('a', 199) || ' tail'), repeat('a', 199),
          'a cut falling on a space leaves no trailing space');

select * from finish();
rollback;
