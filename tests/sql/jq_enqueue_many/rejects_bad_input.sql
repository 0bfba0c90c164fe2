-- jq_enqueue_many: the argument must be a JSON array of objects with known
-- keys and well-typed values; otherwise nothing is inserted.
begin;
select plan(14);

select throws_ok($$select * from jq.jq_enqueue_many(null)$$, '22004', null, 'null jobs raises 22004');
select throws_ok($$select * from jq.jq_enqueue_many('{"type": "t"}')$$, '22023', null,
                 'an object instead of an array raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('"t"')$$, '22023', null, 'a string instead of an array raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "colour": "red"}]')$$, '22023', null,
                 'an unknown key raises 22023');
select throws_like($$select * from jq.jq_enqueue_many('[{"type": "t", "colour": "red"}]')$$, '%jobs[0]%colour%',
                   'the message names the element and the unknown key');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "run_at": "next tuesday-ish"}]')$$, '22007', null,
                 'an unparsable run_at raises 22007');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "run_at": 1893456000}]')$$, '22023', null,
                 'a numeric run_at raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": 5}]')$$, '22023', null, 'a numeric type raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "priority": 1.5}]')$$, '22023', null,
                 'a fractional priority raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "priority": "high"}]')$$, '22023', null,
                 'a string priority raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "priority": 40000}]')$$, '22023', null,
                 'a priority outside smallint raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many('[{"type": "t", "priority": 1e12}]')$$, '22023', null,
                 'a priority beyond integer raises 22023');
select throws_ok($$select * from jq.jq_enqueue_many((select jsonb_agg('{"type": "t"}'::jsonb) from generate_series(1, 10001)))$$,
                 '22023', null, 'more than 10000 elements raises 22023');

select is((select count(*)::int from jq.jobs), 0, 'no rejected call inserted a job');

select * from finish();
rollback;
