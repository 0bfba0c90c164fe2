-- Priority first holds for jobs that were scheduled for later, however many
-- fall due at once: when 10,010 scheduled priority-0 jobs and then one
-- priority-10 job have all fallen due, the next claim takes the priority-10
-- job.
begin;
select plan(2);

select jq_test.set_now('2030-01-01 12:00Z') \gset
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'bulk', 'queue', 'burst_q',
                                                                              'run_at', '2030-01-01T12:10:00Z'))
                                           from generate_series(1, 10000))) \gset
select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'bulk', 'queue', 'burst_q',
                                                                              'run_at', '2030-01-01T12:10:00Z'))
                                           from generate_series(1, 10))) \gset
select job_id as urgent from jq.jq_enqueue('urgent', '{}', 'burst_q', 10, '2030-01-01 12:10:01Z') \gset

select jq_test.advance('11 minutes') \gset
select results_eq($$select id, priority from jq.jq_claim('burst_q', 'w1', 1)$$,
                  format('values (%L::uuid, 10::smallint)', :'urgent'),
                  'the first claim after they fell due takes the priority-10 job');
select is((select count(*)::int from jq.jobs where queue = 'burst_q' and status = 'processing'), 1,
          'and only that job');

select * from finish();
rollback;
