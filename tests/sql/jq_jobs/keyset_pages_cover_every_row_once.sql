-- Keyset pagination: following the cursor of each page's last row visits
-- every job exactly once, newest or oldest first, across the live, dead
-- and history sources, even when many jobs share one created_at.
begin;
select plan(8);

select jq_test.set_now('2030-01-15 08:00Z') \gset
-- 30 ready jobs created at the same instant, 10 more a minute later,
-- 7 dead, 5 succeeded.
select count(*) from jq.jq_enqueue_many(
    (select jsonb_agg(jsonb_build_object('type', 'page.a', 'queue', 'page_q', 'payload', jsonb_build_object('i', i)))
       from generate_series(1, 30) i)) \gset
select jq_test.advance('1 minute') \gset
select count(*) from jq.jq_enqueue_many(
    (select jsonb_agg(jsonb_build_object('type', 'page.b', 'queue', 'page_q')) from generate_series(1, 10) i)) \gset
select count(jq_test.bury('page.c', 'boom ' || i, 'page_q')) from generate_series(1, 7) i \gset
select jq_test.enqueue_and_claim('w1', 'page.d', 'page_q') as d1 \gset
select count(*) from jq.jq_complete(array[:'d1'::uuid], 'w1') \gset
select count(*) from (select jq_test.enqueue_and_claim('w1', 'page.d', 'page_q') as id from generate_series(1, 4)) x,
       lateral jq.jq_complete(array[x.id], 'w1') \gset

-- Walks every page (the cursor of each page's last row opens the next),
-- recording the rows in the order seen; returns the number of pages.
create temp table seen (pass text, n serial, job_id uuid, created_at timestamptz);
create function pg_temp.walk(p_pass text, p_oldest boolean, p_page integer) returns integer language plpgsql as $$
declare
    v_cursor text;
    v_pages  integer := 0;
    v_rows   integer;
    r        record;
begin
    loop
        v_rows := 0;
        for r in select l.job_id, l.created_at, l.cursor from jq.jq_jobs('{"queue": "page_q"}', p_page, v_cursor, p_oldest) l loop
            insert into seen (pass, job_id, created_at) values (p_pass, r.job_id, r.created_at);
            v_cursor := r.cursor;
            v_rows := v_rows + 1;
        end loop;
        exit when v_rows = 0 or v_pages > 100;
        v_pages := v_pages + 1;
    end loop;
    return v_pages;
end $$;

select is(pg_temp.walk('newest', false, 7), 8, 'newest first: 52 jobs in pages of 7 take 8 pages');
select is((select count(distinct job_id)::int from seen where pass = 'newest'), 52, 'every job was seen');
select is((select count(*)::int from seen where pass = 'newest'), 52, 'and none twice');
select is(pg_temp.walk('oldest', true, 5), 11, 'oldest first: 52 jobs in pages of 5 take 11 pages');
select set_eq($$select job_id from seen where pass = 'oldest'$$, $$select job_id from seen where pass = 'newest'$$,
              'both directions visit the same jobs');
select is((select count(*)::int from seen where pass = 'oldest'), 52, 'oldest first sees none twice');
select is_empty(
    $$select 1 from (select created_at, job_id, lag(created_at) over w as pc, lag(job_id) over w as pj
                       from seen where pass = 'newest' window w as (order by n)) x
       where (created_at, job_id) >= (pc, pj)$$,
    'newest first, each row comes strictly before the previous one in (created_at, id)');
select is_empty(
    $$select 1 from (select created_at, job_id, lag(created_at) over w as pc, lag(job_id) over w as pj
                       from seen where pass = 'oldest' window w as (order by n)) x
       where (created_at, job_id) <= (pc, pj)$$,
    'oldest first, strictly after');

select * from finish();
rollback;
