-- jq_enqueue, jq_enqueue_many: run_at lies between 0001-01-02 and 9999-12-30 UTC.
-- A job at -infinity made jq_stats fail for everyone (now() - run_at
-- overflows); one before year 1 could not be read by a Python worker, which
-- then lost its whole claim batch until the leases expired.
begin;
select plan(9);

select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, '-infinity')$$, '22023', null,
                 'run_at -infinity raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, 'infinity')$$, '22023', null,
                 'run_at infinity raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, '0001-01-01 00:00:00+00 BC')$$, '22023', null,
                 'run_at before year 1 raises 22023');
select throws_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, '10000-01-01 00:00:00+00')$$, '22023', null,
                 'run_at after year 9999 raises 22023');
select throws_like($$select * from jq.jq_enqueue('t', '{}', 'default', 0, 'infinity')$$, '%run_at%',
                   'the message names the run_at argument');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "run_at": "-infinity"}]')$$, '22023', null,
                 'jq_enqueue_many: run_at -infinity raises 22023');
select lives_ok($$select * from jq.jq_enqueue('t', '{}', 'default', 0, '0001-01-02 00:00:00+00')$$,
                'run_at 0001-01-02 UTC is accepted');
select lives_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "run_at": "9999-12-30T00:00:00Z"}]')$$,
                'run_at 9999-12-30 UTC is accepted');
select lives_ok($$select * from jq.jq_stats()$$, 'jq_stats still reports');

select * from finish();
rollback;
