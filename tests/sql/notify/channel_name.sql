-- The NOTIFY channel of a queue is jq_<queue>, cut to fit PostgreSQL's
-- 63-byte identifier limit.
begin;
select plan(5);

select is(jq._channel('default'), 'jq_default', 'the default queue''s channel is jq_default');
select is(jq._channel('mail.eu-west:bulk'), 'jq_mail.eu-west:bulk', 'the queue name is used as is');
select cmp_ok(octet_length(jq._channel(repeat('q', 70))), '<=', 63, 'a 70-character queue gives a channel of at most 63 bytes');
select cmp_ok(octet_length(jq._channel(repeat('q', 64))), '<=', 63, 'the longest valid queue (64) gives at most 63 bytes');
select is(jq._channel(repeat('q', 60)), 'jq_' || repeat('q', 60), 'a 60-character queue name is not cut');

select * from finish();
rollback;
