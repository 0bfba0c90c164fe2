-- Error text is kept to jq.settings.max_error_length characters: longer text
-- is cut with a marker saying how long it was, never refused, so the failure
-- is always recorded (also for a 10 MB error).
begin;
select plan(6);

select is((select max_error_length from jq.settings), 8000, 'default: 8000 characters');

select jq_test.enqueue_and_claim('w1', 'long_error', 'long_error') as job_id \gset
select status from jq.jq_fail(:'job_id', 'w1', 'Boom: ' || repeat('x', 10 * 1024 * 1024)) \gset
select is(:'status'::text, 'failed_retrying', 'a 10 MB error is recorded, not refused');
select is((select char_length(last_error) from jq.jobs where id = :'job_id'), 8000, 'it is kept as 8000 characters');
select matches((select last_error from jq.jobs where id = :'job_id'), E'^Boom: x+\n\\.\\.\\. \\[cut: 10485766 characters in all\\]$',
               'it keeps its head and ends with a marker giving the full length');

update jq.settings set max_error_length = 300;
select jq_test.enqueue_and_claim('w1', 'long_error', 'long_error', 1) as dead_id \gset
select jq.jq_fail(:'dead_id', 'w1', repeat('y', 1000));
select is((select char_length(last_error) from jq.dead_jobs where id = :'dead_id'), 300,
          'a dead job''s error follows the setting too');
select jq_test.enqueue_and_claim('w1', 'long_error', 'long_error') as short_id \gset
select jq.jq_fail(:'short_id', 'w1', 'short error');
select is((select last_error from jq.jobs where id = :'short_id'), 'short error', 'short text is kept as it is');

select * from finish();
rollback;
