-- jq._check_text, the ladder every text argument goes through: null 22004
-- (unless nullable), blank 22023, too long 22001, each message naming the
-- argument (with the prefix jq_enqueue_many uses) and the hint on the null
-- and empty errors only.
begin;
select plan(10);

select throws_ok($$select jq._check_text(null, 'type', 128)$$, '22004', 'type must not be null',
                 'null is refused with 22004');
select lives_ok($$select jq._check_text(null, 'tenant', 128, true)$$, 'null passes when nullable');
select throws_ok($$select jq._check_text(' ', 'tenant', 128, true)$$, '22023', 'tenant must not be empty',
                 'blank is refused with 22023, nullable or not');
select throws_ok($$select jq._check_text(repeat('t', 129), 'type', 128, p_prefix => 'jobs[2].')$$, '22001',
                 'jobs[2].type is 129 characters long; the limit is 128', 'too long is refused with 22001, prefixed');
select lives_ok($$select jq._check_text(repeat('t', 128), 'type', 128)$$, 'exactly the limit passes');
select lives_ok($$select jq._check_text(repeat('t', 5000), 'tenant', null, true)$$, 'no limit when p_max is null');

-- The hint rides on the null and empty errors.
create function pg_temp.hint_of(p_sql text) returns text language plpgsql as $$
declare v_hint text;
begin
    execute p_sql;
    return 'no error';
exception when others then
    get stacked diagnostics v_hint = pg_exception_hint;
    return v_hint;
end $$;
select is(pg_temp.hint_of($$select jq._check_text('', 'worker', 255, false, 'Name it.')$$), 'Name it.',
          'the empty error carries the hint');
select is(pg_temp.hint_of($$select jq._check_text(repeat('w', 256), 'worker', 255, false, 'Name it.')$$), '',
          'the too-long error does not');

-- A check without a hint still names the argument (RAISE refuses a null HINT).
select throws_ok($$select jq.jq_queue_set_fair(null, true)$$, '22004', 'queue must not be null',
                 'jq_queue_set_fair names the null queue');
select throws_ok($$select jq._check_not_null(null::uuid[], 'job_ids')$$, '22004', 'job_ids must not be null',
                 'jq._check_not_null takes any type');

select * from finish();
rollback;
