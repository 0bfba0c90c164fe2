-- The schedule's own fields and the job fields (checked by jq._check_job,
-- as for jq_enqueue): each failure raises its SQLSTATE and writes nothing.
begin;
select plan(19);

select throws_ok($$select jq.jq_schedule_put(null, '* * * * *', 'UTC', 't')$$, '22004', null, 'a null name');
select throws_ok($$select jq.jq_schedule_put('  ', '* * * * *', 'UTC', 't')$$, '22023', null, 'a blank name');
select throws_ok($$select jq.jq_schedule_put(repeat('n', 129), '* * * * *', 'UTC', 't')$$, '22001', null,
                 'a name of 129 characters');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_jitter_seconds => -1)$$, '22023', null,
                 'jitter_seconds -1');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_jitter_seconds => 86401)$$, '22023', null,
                 'jitter_seconds 86401');
select throws_matching($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_jitter_seconds => 86401)$$,
                       'jitter_seconds', 'the message names jitter_seconds');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_jitter_seconds => null)$$, '22004', null,
                 'a null jitter_seconds');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_missed => 'sometimes')$$, '22023', null,
                 'missed other than latest, all, none');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_missed => null)$$, '22004', null,
                 'a null missed');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', null)$$, '22004', null, 'a null type');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', '')$$, '22023', null, 'an empty type');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', repeat('t', 129))$$, '22001', null, 'a long type');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', '[1]')$$, '22023', null, 'an array payload');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_queue => 'bad queue')$$, '22023', null,
                 'a bad queue name');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_priority => 40000)$$, '22023', null,
                 'a priority outside smallint');
select throws_ok($$select jq.jq_schedule_put('d', '* * * * *', 'UTC', 't', p_max_attempts => 0)$$, '22023', null,
                 'max_attempts 0');
select is((select count(*)::int from jq.schedules), 0, 'nothing was written');

select lives_ok($$select jq.jq_schedule_put('d0', '* * * * *', 'UTC', 't', p_jitter_seconds => 0)$$, 'jitter 0 is allowed');
select lives_ok($$select jq.jq_schedule_put('d1', '* * * * *', 'UTC', 't', p_jitter_seconds => 86400)$$,
                'jitter 86400 is allowed');

select * from finish();
rollback;
