-- Identifiers made of letters and digits (inv_1, user_42, E11000) become ?,
-- so errors that differ only in which record they name share a fingerprint.
begin;
select plan(4);

select is(jq.error_fingerprint('Timeout after 30s for inv_1'), 'Timeout after 30s for ?', 'inv_1 becomes ?');
select is(jq.error_fingerprint('Timeout after 30s for inv_2'), jq.error_fingerprint('Timeout after 30s for inv_1'),
          'inv_1 and inv_2 give the same fingerprint');
select is(jq.error_fingerprint('user_42 has no email'), '? has no email', 'user_42 becomes ?');
select isnt(jq.error_fingerprint('Timeout after 30s for inv_1'), jq.error_fingerprint('Timeout after 60s for inv_1'),
            'a different short duration is a different error');

select * from finish();
rollback;
