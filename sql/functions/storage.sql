-- Storage rotation of jq.jobs and jq.queue_waiters (docs/storage.md).
--
-- Both tables are partitioned by generation: 0, 1 and 2 take new rows in
-- turn (jq._storage_generation of the sequence jq.storage_turns), and
-- jq.jobs_waiting (3) holds jobs due beyond settings.waiting_horizon. Of the
-- three, one is current (takes new rows), one previous (took them until the
-- last turn) and one oldest (took them before that). jq_tick calls
-- jq._storage_rotate, which does one step per call:
--
--   1. empty the oldest generation, or else the previous one: move its live
--      rows into the current one (or into jobs_waiting) and TRUNCATE it,
--      which frees its dead row versions whatever snapshot another session
--      holds;
--   2. when the current one is old or full enough, turn: the next insert
--      goes into the oldest generation (emptied by now, unless it holds a
--      backlog or was busy);
--   3. bring back the jobs of jobs_waiting that come due within the horizon.
--
-- Safety, the two rules every step keeps:
--   * rows are moved only while this session holds the partition's ACCESS
--     EXCLUSIVE lock: no other statement can read, lock or change a row of it
--     meanwhile, so nothing races the move (no lost completion, no 40001);
--     the lock is only ever tried (NOWAIT), never queued for, so no claim or
--     enqueue waits behind a request of ours;
--   * the TRUNCATE follows the move under the same lock, with the READ
--     COMMITTED snapshot of a statement run after the lock was granted: every
--     committed row is seen and moved, none is in flight.

-- The generation now current: where a row inserted now goes.
create or replace function jq._storage_current()
returns smallint
language sql
volatile
as $$
    select jq._storage_generation(pg_sequence_last_value('jq.storage_turns'::regclass))
$$;

-- Whether partition p_part is as a truncation left it: no page of rows (in
-- its heap or its TOAST table), and each of its indexes (its TOAST table's
-- too) only the metapage an empty build writes. Not "no heap page" alone:
-- autovacuum gives a drained partition's heap pages back but keeps the
-- index pages its rows filled.
create or replace function jq._storage_untouched(p_part regclass)
returns boolean
language sql
volatile
as $$
    select pg_relation_size(p_part) = 0
       and coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0) = 0
       and pg_indexes_size(p_part) + coalesce(pg_indexes_size(nullif(c.reltoastrelid, 0)), 0)
           <= current_setting('block_size')::bigint
              * (select count(*) from pg_index i where i.indrelid in (p_part, c.reltoastrelid))
      from pg_class c
     where c.oid = p_part
$$;

-- The columns of jq.jobs but generation, in order, each prefixed ('' or
-- 'g.'): the column list of a move, read from the catalog so that a column
-- a migration adds moves with the rest. (VOLATILE only to keep the rule of
-- schema/readers_of_jobs_are_volatile simple: it names jq.jobs.)
create or replace function jq._jobs_columns(p_prefix text)
returns text
language sql
volatile
as $$
    select string_agg(p_prefix || quote_ident(a.attname), ', ' order by a.attnum)
      from pg_attribute a
     where a.attrelid = 'jq.jobs'::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'generation'
$$;

-- Moves up to p_batch rows of a partition this transaction holds under
-- ACCESS EXCLUSIVE into generation p_target, or into jobs_waiting (3) when
-- pending, deferred and due after p_wait_after, with everything they hold;
-- then truncates the partition if that was every row. The ids are picked
-- first and the rows deleted by id = any(array), a plan that cannot go
-- wrong whatever the partition's statistics say. The insert goes through
-- jq.jobs, so its NOTIFY trigger wakes workers waiting for the ready ones.
create or replace function jq._storage_empty(
    p_part regclass, p_target smallint, p_wait_after timestamptz, p_batch integer,
    out moved integer, out truncated boolean)
language plpgsql
as $$
declare
    v_ids uuid[];
begin
    execute format('select array(select x.id from %s x limit $1)', p_part) into v_ids using p_batch + 1;
    truncated := cardinality(v_ids) <= p_batch;
    execute format(
        'with gone as (
             delete from %1$s j where j.id = any($3) returning *
         )
         insert into jq.jobs (%2$s, generation)
         select %3$s, case when g.status = ''pending'' and g.deferred and g.run_at > $2 then 3 else $1 end
           from gone g', p_part, jq._jobs_columns(''), jq._jobs_columns('g.'))
        using p_target, p_wait_after, v_ids[1:p_batch];
    get diagnostics moved = row_count;
    if truncated then
        execute format('truncate %s', p_part);
    end if;
end
$$;

-- Copies the marks of generation p_generation's partition of
-- jq.queue_waiters, which this transaction holds under ACCESS EXCLUSIVE,
-- into generation p_target and truncates it. Marks are a few per worker and
-- queue: no batch. Returns how many moved.
create or replace function jq._storage_empty_marks(p_generation smallint, p_target smallint)
returns integer
language plpgsql
as $$
declare
    v_moved integer;
begin
    execute format('insert into jq.queue_waiters (queue, worker, backend_pid, since, generation)
                    select w.queue, w.worker, w.backend_pid, w.since, $1 from jq.queue_waiters_g%s w
                    on conflict do nothing', p_generation)
       using p_target;
    get diagnostics v_moved = row_count;
    execute format('truncate jq.queue_waiters_g%s', p_generation);
    update jq.storage_generations g
       set marks_truncated_at = clock_timestamp(), marks_truncations = g.marks_truncations + 1,
           marks_moved = g.marks_moved + v_moved
     where g.generation = p_generation;
    return v_moved;
end
$$;

-- How long the claims have taken nothing from generation p_generation's
-- backlog: the rows of its partition updated or deleted, by the statistics,
-- less those the rotation moved out, compared with the last look (kept in
-- jq.storage_generations.taken and taken_at; only a rise counts, since the
-- statistics report the rotation's own deletes a little late). Zero at the
-- first look, so a backlog is given rotation_backlog_wait from then.
create or replace function jq._storage_backlog_idle(p_generation smallint)
returns interval
language plpgsql
as $$
declare
    v_part  regclass := format('jq.jobs_g%s', p_generation)::regclass;
    v_taken bigint;
    v_row   jq.storage_generations;
begin
    select * into v_row from jq.storage_generations g where g.generation = p_generation;
    v_taken := pg_stat_get_tuples_updated(v_part) + pg_stat_get_tuples_deleted(v_part) - v_row.moved;
    if v_row.taken is null or v_taken > v_row.taken then
        update jq.storage_generations g set taken = v_taken, taken_at = clock_timestamp()
         where g.generation = p_generation;
        return interval '0';
    end if;
    return clock_timestamp() - v_row.taken_at;
end
$$;

-- Whether generation p_generation holds nothing: its jobs partition as a
-- truncation left it, and no page in its partition of marks.
create or replace function jq._storage_generation_empty(p_generation smallint)
returns boolean
language sql
volatile
as $$
    select jq._storage_untouched(format('jq.jobs_g%s', p_generation)::regclass)
       and pg_relation_size(format('jq.queue_waiters_g%s', p_generation)::regclass) = 0
$$;

-- One step of the rotation (the overview above), for jq_tick: empties the
-- oldest generation, or else the previous one (so that only the current
-- generation keeps dead rows for long), its jobs and then its marks; turns
-- when the current one is due; then brings back due
-- waiting jobs. A generation of more than rotation_move_limit live rows is
-- a backlog, left to the claims while they take from it
-- (jq._storage_backlog_idle); once they have taken nothing for
-- rotation_backlog_wait (a paused queue, a tenant at its cap, no worker), it
-- moves rotation_move_batch rows a call like any other. Returns what it did
-- (outcome: truncated, moving, busy, backlog, turned, idle, off; the
-- generation; rows moved; marks moved; waiting jobs promoted; turned: true
-- when a busy or backlog step was followed by a turn) and how soon
-- it has more to do; holding: whether it holds a partition's lock, which
-- every claim waits for until the caller commits.
create or replace function jq._storage_rotate(
    p_settings jq.settings, out account jsonb, out call_again_after interval, out holding boolean)
language plpgsql
as $$
declare
    v_current   smallint := jq._storage_current();
    v_oldest    smallint := (v_current + 1) % 3;
    v_gen       smallint;
    v_jobs      regclass;
    v_marks     regclass;
    v_wait_after timestamptz := jq._now() + p_settings.waiting_horizon;
    v_outcome   text := 'idle';
    v_live      integer := 0;
    v_moved     integer := 0;
    v_marks_moved integer;
    v_promoted  integer;
    v_truncated boolean;
    v_holding   boolean := false;
    v_idle      interval;
    v_age       interval;
    v_size      bigint;
    v_turned    boolean;
begin
    holding := false;
    if not p_settings.rotate_storage then
        account := jsonb_build_object('rotation', 'off');
        return;
    end if;
    call_again_after := p_settings.tick_interval;
    v_gen := case when not jq._storage_generation_empty(v_oldest) then v_oldest
                  when not jq._storage_generation_empty(((v_current + 2) % 3)::smallint) then (v_current + 2) % 3 end;
    -- pg_dump takes its snapshot before it locks the tables: a truncation in
    -- between would leave the dump without the moved rows.
    if exists (select 1 from pg_stat_activity a
                where a.datid = (select d.oid from pg_database d where d.datname = current_database())
                  and a.application_name = 'pg_dump' and a.pid <> pg_backend_pid()) then
        account := jsonb_build_object('rotation', 'busy', 'generation', coalesce(v_gen, v_oldest), 'reason', 'pg_dump');
        return;
    end if;
    if v_gen is not null then
        v_jobs := format('jq.jobs_g%s', v_gen)::regclass;
        v_marks := format('jq.queue_waiters_g%s', v_gen)::regclass;
    end if;
    if v_gen is not null and not jq._storage_untouched(v_jobs) then
        execute format('select count(*) from (select from %s x limit $1) x', v_jobs)
           into v_live using p_settings.rotation_move_limit + 1;
        if v_live > p_settings.rotation_move_limit then
            v_idle := jq._storage_backlog_idle(v_gen);
        end if;
        if v_idle < p_settings.rotation_backlog_wait then
            v_outcome := 'backlog';
            call_again_after := least(p_settings.rotation_turn_after, p_settings.rotation_backlog_wait - v_idle);
        elsif not jq._try_lock(v_jobs, 'access exclusive', p_settings.tick_lock_wait) then
            v_outcome := 'busy';
        else
            v_holding := true;
            select e.moved, e.truncated into v_moved, v_truncated
              from jq._storage_empty(v_jobs, v_current, v_wait_after, p_settings.rotation_move_batch) e;
            update jq.storage_generations s
               set truncated_at = case when v_truncated then clock_timestamp() else s.truncated_at end,
                   truncations = s.truncations + v_truncated::integer, moved = s.moved + v_moved,
                   taken = case when v_truncated then null else s.taken end,
                   taken_at = case when v_truncated then null else s.taken_at end
             where s.generation = v_gen;
            v_outcome := case when v_truncated then 'truncated' else 'moving' end;
            call_again_after := interval '0';
        end if;
    end if;

    -- The marks go with their generation's jobs, once the jobs are gone.
    if v_gen is not null and v_outcome in ('idle', 'truncated') and pg_relation_size(v_marks) > 0 then
        if jq._try_lock(v_marks, 'access exclusive',
                        case when v_holding then interval '0' else p_settings.tick_lock_wait end) then
            v_holding := true;
            v_marks_moved := jq._storage_empty_marks(v_gen, v_current);
            call_again_after := interval '0';
        else
            v_outcome := 'busy';
        end if;
    end if;

    -- Turn only in a call that locked nothing: the emptied generation's lock
    -- is held until this call commits, and every insert would wait for it.
    -- Into the oldest generation even when it still holds rows (a backlog
    -- the claims drain, or one the claims keep locked while they work back
    -- to back): each generation then holds a turn's writes, instead of one
    -- growing for the whole flood, and is emptied when it can be.
    if not v_holding then
        select clock_timestamp() - g.current_since into v_age from jq.storage_generations g where g.generation = v_current;
        v_size := pg_total_relation_size(format('jq.jobs_g%s', v_current)::regclass);
        -- By size only into an empty generation: one that kept its rows would
        -- be full at once, and turned away from again at the next call.
        if (p_settings.rotation_turn_bytes > 0
            and pg_relation_size(format('jq.jobs_g%s', v_current)::regclass) >= p_settings.rotation_turn_bytes
            and jq._storage_generation_empty(v_oldest))
           or (v_age >= p_settings.rotation_turn_after and v_size >= p_settings.rotation_min_bytes) then
            perform nextval('jq.storage_turns');
            update jq.storage_generations g set current_since = clock_timestamp() where g.generation = v_oldest;
            v_turned := true;
            if v_outcome = 'idle' then  -- else the outcome of the step before (busy, backlog) stays
                v_outcome := 'turned';
                v_gen := v_oldest;
            end if;
            call_again_after := interval '0';
        elsif v_outcome = 'idle' then
            call_again_after := case when v_size >= p_settings.rotation_min_bytes
                                     then greatest(interval '0', least(p_settings.tick_interval,
                                                                       p_settings.rotation_turn_after - v_age))
                                     else p_settings.rotation_turn_after end;  -- quiet: no turn for a while
        end if;
    end if;

    -- Waiting jobs now due within the horizon come back, soonest first.
    if exists (select 1 from jq.jobs_waiting w where w.run_at <= v_wait_after) then
        if jq._try_lock('jq.jobs_waiting', 'access exclusive',
                        case when v_holding then interval '0' else p_settings.tick_lock_wait end) then
            execute format(
                'with gone as (
                     delete from jq.jobs_waiting w
                      where w.id = any(array(select d.id from jq.jobs_waiting d where d.run_at <= $1
                                              order by d.run_at limit $2))
                     returning w.*
                 )
                 insert into jq.jobs (%1$s, generation)
                 select %2$s, $3 from gone g', jq._jobs_columns(''), jq._jobs_columns('g.'))
                using v_wait_after, p_settings.rotation_move_batch, jq._storage_current();
            get diagnostics v_promoted = row_count;
            v_holding := true;
            if v_promoted = p_settings.rotation_move_batch then
                call_again_after := interval '0';
            end if;
        else
            call_again_after := least(call_again_after, p_settings.tick_interval);
        end if;
    end if;

    holding := v_holding;
    account := jsonb_strip_nulls(jsonb_build_object(
        'rotation', v_outcome,
        'generation', coalesce(v_gen, v_current),
        'moved', nullif(v_moved, 0),
        'marks_moved', v_marks_moved,
        'promoted', v_promoted,
        'turned', case when v_turned and v_outcome <> 'turned' then true end));
end
$$;

-- The four partitions of jq.jobs first (a reader may index them by
-- generation), then the three of the waiting workers' marks, which rotate
-- with them.
create or replace function jq.jq_storage()
returns table(generation smallint, partition_name text, role text, live_rows bigint, dead_rows bigint,
              bytes bigint, truncated_at timestamptz, truncations bigint, moved bigint)
language sql
volatile  -- sizes its partitions, so locks them before its snapshot (docs/storage.md)
security definer
set search_path = jq, pg_catalog, pg_temp
set standard_conforming_strings = on
set constraint_exclusion = off
as $$
    select p.generation, p.part,
           case when p.generation = 3 then 'waiting'
                when p.generation = jq._storage_current() then 'current'
                when p.generation = (jq._storage_current() + 2) % 3 then 'previous'
                else 'oldest' end,
           coalesce(s.n_live_tup, 0), coalesce(s.n_dead_tup, 0),
           pg_total_relation_size(format('jq.%I', p.part)::regclass),
           case when p.marks then g.marks_truncated_at else g.truncated_at end,
           coalesce(case when p.marks then g.marks_truncations else g.truncations end, 0),
           coalesce(case when p.marks then g.marks_moved else g.moved end, 0)
      from (values (0::smallint, 'jobs_g0', false), (1::smallint, 'jobs_g1', false),
                   (2::smallint, 'jobs_g2', false), (3::smallint, 'jobs_waiting', false),
                   (0::smallint, 'queue_waiters_g0', true), (1::smallint, 'queue_waiters_g1', true),
                   (2::smallint, 'queue_waiters_g2', true)) as p(generation, part, marks)
      left join pg_stat_user_tables s on s.relid = format('jq.%I', p.part)::regclass
      left join jq.storage_generations g on g.generation = p.generation
     order by p.marks, p.generation
$$;
comment on function jq.jq_storage() is
    'The partitions of jq.jobs, then those of jq.queue_waiters -> (generation, partition_name, role: current/previous/oldest/waiting, live_rows and dead_rows from the statistics, bytes with indexes and TOAST, truncated_at, truncations, moved). What jq_tick keeps small.';
