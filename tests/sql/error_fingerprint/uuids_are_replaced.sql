-- UUIDs, in any case, become ?.
begin;
select plan(3);

select is(jq.error_fingerprint('Job 3f2b8c1e-9a4d-4e2b-8f3a-1c2d3e4f5a6b not found'), 'Job ? not found',
          'a lowercase UUID becomes ?');
select is(jq.error_fingerprint('Job 3F2B8C1E-9A4D-4E2B-8F3A-1C2D3E4F5A6B not found'), 'Job ? not found',
          'an uppercase UUID becomes ?');
select is(jq.error_fingerprint('tenant=00000000-0000-4000-8000-000000000001/job=' || gen_random_uuid()),
          'tenant=?/job=?', 'two UUIDs in one message both become ?');

select * from finish();
rollback;
