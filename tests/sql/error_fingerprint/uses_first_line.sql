-- A multi-line error (a traceback) is grouped by its first line only.
begin;
select plan(2);

select is(jq.error_fingerprint(E'KeyError: ''customer''\nTraceback (most recent call last):\n  File "app.py", line 12'),
          $$KeyError: '?'$$, 'only the first line is kept');
select is(jq.error_fingerprint(E'HTTP 503\n  at attempt 1 on host-a'), jq.error_fingerprint(E'HTTP 503\n  at attempt 2 on host-b'),
          'errors differing only after the first line share a fingerprint');

select * from finish();
rollback;
