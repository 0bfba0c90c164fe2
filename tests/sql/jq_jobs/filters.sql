-- Each filter key narrows the listing: queue, type, status (a word or an
-- array), tenant, payload (@>), created and finished windows, id prefix
-- (with or without dashes).
begin;
select plan(13);

select jq_test.set_now('2030-01-15 08:00Z') \gset
select (jq.jq_enqueue('flt.mail', '{"to": "a@x", "n": 1}', 'flt_q', 0, null, null, null, 'acme')).job_id as mail1 \gset
select jq_test.advance('1 hour') \gset
select (jq.jq_enqueue('flt.mail', '{"to": "b@x", "n": 2}', 'flt_q', 0, null, null, null, 'globex')).job_id as mail2 \gset
select jq_test.advance('1 hour') \gset
select (jq.jq_enqueue('flt.sms', '{"to": "a@x"}', 'flt_other')).job_id as sms \gset
select jq_test.advance('1 hour') \gset
select jq_test.enqueue_and_claim('w1', 'flt.done', 'flt_q') as done \gset
select count(*) from jq.jq_complete(array[:'done'::uuid], 'w1') \gset
select jq_test.advance('1 second') \gset
select jq_test.bury('flt.mail', 'HTTP 503', 'flt_q', '{"to": "a@x"}') as dead \gset

create temp table mine as select unnest(array[:'mail1', :'mail2', :'sms', :'done', :'dead']::uuid[]) as id;
create function pg_temp.ids(p_filter jsonb) returns uuid[] language sql as $$
    select coalesce(array_agg(l.job_id order by l.created_at, l.job_id), '{}')
      from jq.jq_jobs(p_filter, 1000) l where l.job_id in (select id from mine)
$$;

select is(pg_temp.ids('{"queue": "flt_q"}'), array[:'mail1', :'mail2', :'done', :'dead']::uuid[], 'queue');
select is(pg_temp.ids('{"type": "flt.mail"}'), array[:'mail1', :'mail2', :'dead']::uuid[], 'type, in every source');
select is(pg_temp.ids('{"tenant": "acme"}'), array[:'mail1']::uuid[], 'tenant');
select is(pg_temp.ids('{"payload": {"to": "a@x"}}'), array[:'mail1', :'sms', :'dead']::uuid[],
          'payload containment (history keeps no payload, so it is left out)');
select is(pg_temp.ids('{"status": "queued"}'), array[:'mail1', :'mail2', :'sms']::uuid[], 'one status word');
select is(pg_temp.ids('{"status": ["succeeded", "dead"]}'), array[:'done', :'dead']::uuid[], 'an array of them');
select is(pg_temp.ids('{"created_after": "2030-01-15T09:00:00Z", "created_before": "2030-01-15T10:30:00Z"}'),
          array[:'mail2', :'sms']::uuid[], 'a created window: after inclusive, before exclusive');
select is(pg_temp.ids('{"finished_after": "2030-01-15T10:00:00Z"}'), array[:'done', :'dead']::uuid[],
          'a finished window matches only finished jobs (history and dead)');
select is(pg_temp.ids(jsonb_build_object('id_prefix', left(:'mail2', 8))), array[:'mail2']::uuid[],
          'an id prefix of 8 hex digits');
select is(pg_temp.ids(jsonb_build_object('id_prefix', upper(left(:'dead', 13)))), array[:'dead']::uuid[],
          'an id prefix with its dash, in upper case');
select is(pg_temp.ids(jsonb_build_object('id_prefix', :'done')), array[:'done']::uuid[], 'a whole id');
select is(pg_temp.ids('{"queue": "flt_q", "type": "flt.mail", "status": "queued", "tenant": "globex"}'),
          array[:'mail2']::uuid[], 'keys combine with and');
select is(pg_temp.ids('{"type": "flt.none"}'), '{}'::uuid[], 'nothing matches: no row');

select * from finish();
rollback;
