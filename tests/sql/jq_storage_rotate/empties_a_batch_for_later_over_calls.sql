-- Jobs bound for jobs_waiting (due beyond the horizon) never drain, so they
-- do not count against settings.rotation_move_limit: a generation holding
-- more of them than the limit is emptied over a few calls, at most the limit
-- of them per call ('moving'), and truncated by the last.
begin;
select plan(5);

update jq.settings set rotation_min_bytes = 0;  -- a small generation is emptied too

update jq.settings set rotation_move_limit = 10;
select jq_test.at_slot_start() as cur \gset
select (:cur + 1) % 3 as old \gset
select jq.jq_enqueue('t_tomorrow', '{}', 'later_q', 0, now() + interval '1 day') from generate_series(1, 25);
select jq.jq_enqueue('t_now', '{}', 'later_q');
select jq_test.store_in(id, :old) from jq.jobs where queue = 'later_q';

select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 11)$$, 'first call: the ready job and 10 for tomorrow move');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('moving'::text, 10)$$, 'second call: 10 more');
select results_eq(format('select outcome, moved from jq.jq_storage_rotate() where generation = %s', :old),
                  $$values ('truncated'::text, 5)$$, 'third call: the last 5, then the truncation');
select is((select count(*)::int from jq.jobs where type = 't_tomorrow' and generation = 3), 25,
          'all 25 wait in jobs_waiting');
select is((select generation::int from jq.jobs where type = 't_now'), :cur, 'the ready job is in the current generation');

select * from finish();
rollback;
