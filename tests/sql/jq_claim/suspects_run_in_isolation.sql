-- Poison containment. A job orphaned twice is a suspect: only a worker that
-- holds nothing claims it, alone, and that worker claims nothing else until
-- it is done. A suspect that kills its worker then is blamed (the attempt
-- counts) and dead after max_attempts; the jobs beside it when it first
-- crashed workers lost no attempt.
begin;
select plan(8);

select jq_test.set_now('2030-03-01 09:00Z') \gset
select job_id as killer from jq.jq_enqueue('kill', '{}', 'iso_q', 0, null, 2) \gset
select jq_test.enqueue_ready(3, 'work', 'iso_q', 2) as innocents \gset

-- Two crashes in a crowd (the lease expires for all four at once, twice).
select count(*) from jq.jq_claim('iso_q', 'iso-a', 10, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq.jq_claim('iso_q', 'iso-b', 10, '1 minute') \gset
select jq_test.advance('2 minutes') \gset
select count(*) from jq._reap_expired('iso_q', jq._now()) \gset
select results_eq(
    $$select attempts::int, orphaned::int from jq.jobs where queue = 'iso_q' order by id$$,
    $$values (0, 2), (0, 2), (0, 2), (0, 2)$$,
    'two crowd crashes: no attempt counted, each job orphaned twice');

-- A busy worker gets no suspect; an idle one gets exactly one.
select job_id as plain from jq.jq_enqueue('work', '{}', 'iso_q') \gset
select jq_test.enqueue_and_claim('iso-busy', 'other', 'iso_other') as held \gset
select results_eq($$select id from jq.jq_claim('iso_q', 'iso-busy', 10)$$, array[:'plain'::uuid],
                  'a worker holding a job gets only the plain job, no suspect');
create temp table alone as select * from jq.jq_claim('iso_q', 'iso-c', 10, '1 minute');
select is((select count(*)::int from alone), 1, 'an idle worker gets one suspect, alone');
select is_empty($$select * from jq.jq_claim('iso_other', 'iso-c', 10)$$,
                'a worker holding a suspect claims nothing else, in any queue');

select count(*) from jq.jq_release((select array_agg(id) from alone), 'iso-c') \gset
select count(*) from jq.jq_complete(array[:'plain'::uuid], 'iso-busy') \gset

-- Run the suspects one by one, each in a fresh worker: a 'work' job
-- completes, the killer kills its worker (its lease runs out).
do $$
declare
    v_job record;
begin
    for i in 1 .. 12 loop
        select * into v_job from jq.jq_claim('iso_q', 'iso-r' || i, 10, '1 minute') limit 1;
        exit when v_job.id is null;
        if v_job.type = 'work' then
            perform jq.jq_complete(array[v_job.id], 'iso-r' || i);
        else
            perform jq_test.advance('2 minutes');
        end if;
    end loop;
end
$$;
select is((select count(*)::int from jq.dead_jobs where id = any(:'innocents'::uuid[])), 0,
          'no innocent job is dead');
select results_eq(format('select attempts, orphaned from jq.dead_jobs where id = %L', :'killer'),
                  $$values (2::smallint, 2::smallint)$$,
                  'the killer is dead after its 2 attempts, both isolated runs');
select is((select count(*)::int from jq.job_history where id = any(:'innocents'::uuid[])
            and status = 'succeeded'), 3, 'the innocents succeeded');
select is((select count(*)::int from jq.jobs where queue = 'iso_q'), 0, 'nothing is left');

select * from finish();
rollback;
