-- Storage rotation of jq.jobs (docs/storage.md, migration 13).
--
-- Rows go into the generation of the two-second slot they were written in
-- (jq._storage_generation), or of the next slot once jq_storage_turn has
-- ended the current one early because its generation is full. A generation
-- that no longer takes rows is emptied and TRUNCATEd: a new, empty file,
-- whatever snapshots other sessions hold, so the dead row versions a long
-- transaction pins last a few seconds instead of its whole length.
--
-- Safety, the two rules every step keeps:
--   * rows are moved only while this session holds the partition's ACCESS
--     EXCLUSIVE lock (jq._storage_lock): no other statement can read, lock
--     or change a row of it meanwhile, so nothing races the move (no lost
--     completion, no 40001); a partition that another session holds for
--     long (a pg_dump, a claim in a transaction left open) is left for the
--     next call without queueing for the lock at all;
--   * the TRUNCATE follows the move in the same locked statement sequence,
--     with the READ COMMITTED snapshot of a statement run after the lock was
--     granted: every committed row is seen and moved, none is in flight.

-- The generation now current: the slot of this instant, counted with the
-- slots jq_storage_turn ended early. What the default of jq.jobs.generation
-- gives a row inserted now.
create or replace function jq._storage_current()
returns smallint
language sql
volatile
as $$
    select jq._storage_generation(clock_timestamp(), pg_sequence_last_value('jq.storage_slot_turns'::regclass))
$$;

-- The rotation's advisory lock, until this transaction ends, or false when
-- another session holds it: one session rotates (jq_storage_rotate) or ends
-- a slot (jq_storage_turn) at a time, the others return at once.
create or replace function jq._storage_try_rotation_lock()
returns boolean
language sql
volatile
as $$
    select pg_try_advisory_xact_lock(hashtext('jq.storage_rotate'))
$$;

-- Whether another session holds a lock on p_rel that a wait would not see
-- released soon: held by a transaction left idle, by one that is itself
-- waiting for a lock, by a prepared transaction, or by one open longer than
-- p_patience. Statements of claimers and completers in flight hold their
-- locks for milliseconds; a pg_dump, a report or a forgotten session for
-- as long as it likes, and an ACCESS EXCLUSIVE request queued behind it
-- would stall every claim meanwhile. A session whose activity this role may
-- not see (pg_read_all_stats) counts as short: lock_timeout still bounds
-- the wait.
create or replace function jq._storage_lock_held_long(p_rel regclass, p_patience interval)
returns boolean
language sql
volatile
as $$
    select exists (
        select 1
          from pg_locks l
          left join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'relation'
           and l.database = (select d.oid from pg_database d where d.datname = current_database())
           and l.relation = p_rel
           and l.granted
           and l.pid is distinct from pg_backend_pid()
           and (l.pid is null  -- a prepared transaction
                or a.state in ('idle in transaction', 'idle in transaction (aborted)')
                or a.wait_event_type = 'Lock'
                or a.xact_start < clock_timestamp() - p_patience))
$$;

-- Whether this session holds an ACCESS EXCLUSIVE lock (jq_storage_rotate's, until it commits).
create or replace function jq._storage_holding_a_lock()
returns boolean
language sql
volatile
as $$
    select exists (select 1 from pg_locks l
                    where l.pid = pg_backend_pid() and l.locktype = 'relation'
                      and l.mode = 'AccessExclusiveLock' and l.granted)
$$;

-- Whether partition p_part is as a truncation left it: no page of rows (in
-- its heap or its TOAST table), and each of its indexes (its TOAST table's
-- too) only the metapage an empty build writes. Not "no heap page" alone:
-- autovacuum gives a drained generation's heap pages back but keeps every
-- index page its rows filled (figure f at 2,000,000 jobs ended with two
-- generations of no heap page and 13.9 and 17.6 MB of indexes, taken for
-- empty and never truncated). A free space map left without pages to map
-- does not count.
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

-- Takes the ACCESS EXCLUSIVE lock of partition p_part of schema jq for the
-- rest of the transaction, or returns false: at once when a holder would
-- not let go soon (jq._storage_lock_held_long), else after waiting up to
-- p_wait for the statements in flight to end. While this session waits, new
-- statements on the partition queue behind it: the wait is what every claim
-- and completion may be held up, once per truncation.
drop function if exists jq._storage_lock(text);  -- an unreleased build's
create or replace function jq._storage_lock(p_part text, p_wait interval)
returns boolean
language plpgsql
as $$
begin
    if jq._storage_lock_held_long(format('jq.%I', p_part)::regclass, interval '250 ms') then
        return false;
    end if;
    if p_wait = interval '0' then
        execute format('lock table jq.%I in access exclusive mode nowait', p_part);
        return true;
    end if;
    perform set_config('lock_timeout', (extract(epoch from p_wait) * 1000)::integer || 'ms', true);
    execute format('lock table jq.%I in access exclusive mode', p_part);
    return true;
exception when lock_not_available then
    return false;
end
$$;

-- The columns of jq.jobs but generation, in order, each prefixed (''
-- or 'g.'): the column list of a move, read from the catalog so that a
-- column a migration adds moves with the rest. (VOLATILE only to keep the
-- rule of schema/readers_of_jobs_are_volatile simple: it reads the catalog.)
create or replace function jq._jobs_columns(p_prefix text)
returns text
language sql
volatile
as $$
    select string_agg(p_prefix || quote_ident(a.attname), ', ' order by a.attnum)
      from pg_attribute a
     where a.attrelid = 'jq.jobs'::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'generation'
$$;

-- Moves the rows of one partition that this transaction holds under ACCESS
-- EXCLUSIVE into the generation of the current slot (p_target), or into
-- jobs_waiting when they wait beyond the horizon (p_wait_after), and
-- truncates the partition once nothing is left. At most p_limit rows bound
-- for the current generation and p_limit bound for jobs_waiting (soonest
-- first) move per call, so that the lock stays short; a generation holding
-- more (a batch of jobs for tomorrow, a mostly dead one with a few thousand
-- live) is emptied over a few calls. Returns how many rows moved and
-- whether the partition was truncated. The insert goes through jq.jobs, so its
-- NOTIFY trigger wakes workers waiting for the ready ones.
--
-- The ids are picked first, into an array, and the rows deleted by
-- id = any(array) on the primary key: a plan that cannot go wrong whatever
-- the partition's statistics say. (As one statement, delete ... where id in
-- (the pick), a partition vacuumed while empty and refilled since was
-- estimated at one row; the planner ran the pick once per row of the
-- partition, and the call held its lock, with every claim waiting, 10 s.)
--
-- Every claim waits while this runs, and each scan of a drained generation
-- reads every page of its dead rows (a 100,000-job backlog: 18 MB, 2-4 ms a
-- scan on the bench server). So it looks once, at up to twice the limit and
-- one more: when that saw every row and neither kind is over the limit (the
-- usual case, none or a few left), those are all of them, and the partition
-- is empty once they have moved. Only a generation holding more is picked
-- again by kind (soonest first for jobs_waiting) and looked at once more
-- after the move. (Three scans under the lock before: 6.6 of its 19 ms for
-- that backlog's generation.)
create or replace function jq._storage_empty(
    p_part text, p_target smallint, p_wait_after timestamptz, p_limit integer,
    out moved integer, out truncated boolean)
language plpgsql
as $$
declare
    v_ids uuid[];
    v_waiting integer;
    v_seen_all boolean;
begin
    execute format(
        'select coalesce(array_agg(s.id), ''{}''), count(*) filter (where s.waits), count(*) < $2
           from (select x.id, jq._storage_waits(x.status, x.deferred, x.run_at, $1) as waits
                   from jq.%I x limit $2) s', p_part)
        into v_ids, v_waiting, v_seen_all using p_wait_after, 2 * p_limit + 1;
    v_seen_all := v_seen_all and v_waiting <= p_limit and cardinality(v_ids) - v_waiting <= p_limit;
    if not v_seen_all then
        execute format(
            'select array(
                 (select x.id from jq.%1$I x where not jq._storage_waits(x.status, x.deferred, x.run_at, $1)
                   limit $2)
                 union all
                 (select x.id from jq.%1$I x where jq._storage_waits(x.status, x.deferred, x.run_at, $1)
                   order by x.run_at limit $2))', p_part)
            into v_ids using p_wait_after, p_limit;
    end if;
    execute format(
        'with gone as (
             delete from jq.%1$I j where j.id = any($3) returning *
         )
         insert into jq.jobs (%2$s, generation)
         select %3$s, case when jq._storage_waits(g.status, g.deferred, g.run_at, $2) then 3 else $1 end
           from gone g', p_part, jq._jobs_columns(''), jq._jobs_columns('g.'))
        using p_target, p_wait_after, v_ids;
    get diagnostics moved = row_count;
    if v_seen_all and moved = cardinality(v_ids) then
        truncated := true;
    else
        execute format('select not exists (select 1 from jq.%I)', p_part) into truncated;
    end if;
    if truncated then
        execute format('truncate jq.%I', p_part);
    end if;
end
$$;

-- Whether a row waits in jobs_waiting when its generation is emptied: pending,
-- deferred, and due after the horizon.
create or replace function jq._storage_waits(
    p_status text, p_deferred boolean, p_run_at timestamptz, p_wait_after timestamptz)
returns boolean
language sql
immutable
as $$
    select p_status = 'pending' and p_deferred and p_run_at > p_wait_after
$$;

-- A partition's live rows by the statistics (about a second behind, and
-- drifting around truncations: see jq._storage_worth_emptying). Its own
-- function so that a pgTAP test can stand in drifted statistics.
create or replace function jq._storage_live_by_statistics(p_part regclass)
returns bigint
language sql
stable
as $$
    select pg_stat_get_live_tuples(p_part)
$$;

-- Why a generation that no longer takes rows is not to be emptied now, or
-- null when it is. Kept:
--   * 'small': it takes under p_min_bytes (settings.rotation_min_bytes) on
--     disk, heap, indexes and TOAST together (migration 17: the heap alone
--     kept a generation whose heap autovacuum had shrunk and whose indexes
--     held megabytes). A truncation holds the partition's lock 15-35 ms on
--     a durable server, with every claim waiting (one fsync per index it builds empty), and
--     every session plans its statements again after it; a few hundred kB
--     of dead versions cost a claim less than that. A generation kept takes
--     rows again in its next slot, so it is emptied once it has grown.
--   * 'draining': left to the claims, which are working it down or will.
--     A generation of more live rows than one call moves (500; jobs bound
--     for jobs_waiting do not count: they never drain) is emptied only once
--     its count has stood still for 10 s (jq.storage_generations.live_rows,
--     live_at: the count when it last changed, and when; -1 once the
--     rotation has begun to empty it, so the next calls go on), and then only
--     when it holds at most p_move_limit of them, or is mostly dead row
--     versions (heap, indexes and TOAST over 1 MB and over twice the bytes
--     of its live rows, with at most ten times the limit of them): a paused
--     queue, a tenant at its cap, jobs running for long. (The heap alone, as
--     before, missed a generation autovacuum had cleaned: 2.2 MB of heap for
--     10,000 live rows, 7 MB of index entries left, never emptied; a
--     generation of live rows only takes 1.1-1.3 times their bytes.) One the
--     claims are taking is left to them. (Moving the rows the claims were
--     about to take held the lock for 500 rows every 0.15 s while they did:
--     urgent pickups' p99 in figure e, 41.9-42.3 ms against 19.3-36.2 ms
--     now.)
-- The statistics (jq._storage_live_by_statistics) spare the count when they
-- say the backlog is over ten times the limit, but only while the last count
-- said so too and is under 10 s old: they drift. A truncation resets a
-- partition's counters while other sessions still hold changes to it they
-- have not reported (each reports at most once a second), and those land on
-- the emptied partition afterwards. In figure f a generation of 10,000 live
-- rows and 89 MB of dead ones read 35,000 by the statistics, was taken for a
-- backlog and never emptied: 27x its fresh size 30 s after the flood.
drop function if exists jq._storage_worth_emptying(text, timestamptz, integer);  -- an unreleased build's
create or replace function jq._storage_worth_emptying(
    p_generation smallint, p_wait_after timestamptz, p_move_limit integer, p_min_bytes integer)
returns text
language plpgsql
as $$
declare
    v_part       regclass := format('jq.jobs_g%s', p_generation)::regclass;
    v_bytes      bigint := pg_total_relation_size(v_part);  -- heap, indexes and TOAST
    v_over       integer := 10 * p_move_limit + 1;  -- counted up to this: "more than ten times the limit"
    v_noted      integer;
    v_noted_at   timestamptz;
    v_live       integer := 10 * p_move_limit + 1;
    v_live_bytes bigint;
    v_fit        boolean;  -- few enough live rows to move, or mostly dead
    v_counted    boolean := false;
begin
    if v_bytes < p_min_bytes then
        return 'small';
    end if;
    select g.live_rows, g.live_at into v_noted, v_noted_at from jq.storage_generations g where g.generation = p_generation;
    if jq._storage_live_by_statistics(v_part) < v_over or v_noted is distinct from v_over
       or v_noted_at <= clock_timestamp() - interval '10 s' then
        execute format('select count(*), coalesce(sum(r.bytes), 0)
                          from (select pg_column_size(x.*) as bytes from %s x
                                 where not jq._storage_waits(x.status, x.deferred, x.run_at, $2)
                                 limit $1) r', v_part)
           into v_live, v_live_bytes using v_over, p_wait_after;
        v_counted := true;
    end if;
    if v_live <= least(p_move_limit, 500) then  -- what one call moves (MOVE_BATCH)
        return null;
    end if;
    v_fit := v_live <= p_move_limit
             or (v_live < v_over and v_bytes > greatest(2 * v_live_bytes, 1048576));
    if v_noted = -1 and v_fit then  -- being emptied: go on
        return null;
    elsif v_noted is distinct from v_live or (v_counted and v_live = v_over) then
        -- first seen, changed since, or counted over the limit again (believed for 10 s more)
        update jq.storage_generations g set live_rows = v_live, live_at = clock_timestamp()
         where g.generation = p_generation;
        return 'draining';
    elsif v_noted_at <= clock_timestamp() - interval '10 s' and v_fit then  -- stood still 10 s
        return null;
    end if;
    return 'draining';
end
$$;

-- Tries one generation: skipped when it is current, untouched since its
-- truncation (jq._storage_untouched), small or a backlog
-- (jq._storage_worth_emptying); otherwise locked (or 'busy' when the lock
-- is not to be had), emptied and truncated ('moving' while rows are left
-- for the next call: at most the move limit of each kind moves per call).
-- p_may_wait false: take the lock only if it is free at once (the caller
-- already holds another partition's, and every claim waits while it does).
-- A generation of up to p_move_limit live rows is emptied, but at most
-- MOVE_BATCH (500) of each kind move per call, in about 5 ms: claims and
-- completions wait while the lock is held, and 2,000 rows at once held it
-- 40 ms (urgent pickups' p99 in figure e, 19-22 ms against 30-35 ms). The
-- caller calls again at once while the outcome is 'moving'.
drop function if exists jq._storage_rotate_generation(smallint, timestamptz, integer);  -- unreleased builds'
drop function if exists jq._storage_rotate_generation(smallint, timestamptz, integer, boolean);
create or replace function jq._storage_rotate_generation(
    p_generation smallint, p_wait_after timestamptz, p_move_limit integer, p_min_bytes integer, p_may_wait boolean)
returns table(outcome text, moved integer)
language plpgsql
as $$
declare
    v_part text := 'jobs_g' || p_generation;
    v_batch constant integer := least(p_move_limit, 500);  -- MOVE_BATCH
    v_moved integer;
    v_truncated boolean;
    v_kept text;
begin
    if jq._storage_current() = p_generation then
        return query select 'current', 0;
        return;
    end if;
    if jq._storage_untouched(format('jq.%I', v_part)::regclass) then
        return query select 'empty', 0;
        return;
    end if;
    v_kept := jq._storage_worth_emptying(p_generation, p_wait_after, p_move_limit, p_min_bytes);
    if v_kept is not null then
        return query select v_kept, 0;
        return;
    end if;
    -- No wait at first: between the statements of a queue taking jobs a few
    -- at a time the partition is often free, and every claim that queues
    -- behind a waiting request is late (urgent pickups' p99 went from 12 to
    -- 40 ms with a wait of 50 ms). Then 50 ms, then 250 ms, as calls are
    -- refused in a row (the worker calls again 0.5 s later): claims of 1,000
    -- jobs back to back take 35-60 ms each and never leave a shorter gap,
    -- and a generation never truncated is the bloat this exists to prevent.
    if not jq._storage_lock(v_part, case when not p_may_wait then interval '0'
                                         else (array[interval '0', interval '50 ms', interval '250 ms'])[
                                                1 + least(2, (select g.refused from jq.storage_generations g
                                                               where g.generation = p_generation))] end) then
        update jq.storage_generations g set refused = g.refused + 1 where g.generation = p_generation;
        return query select 'busy', 0;
        return;
    end if;
    if jq._storage_current() = p_generation then  -- the slot came round while we waited
        return query select 'current', 0;
        return;
    end if;
    select e.moved, e.truncated into v_moved, v_truncated
      from jq._storage_empty(v_part, jq._storage_current(), p_wait_after, v_batch) e;
    update jq.storage_generations s
       set truncated_at = case when v_truncated then clock_timestamp() else s.truncated_at end,
           truncations = s.truncations + v_truncated::integer, moved = s.moved + v_moved, refused = 0,
           live_rows = case when v_truncated then null else -1 end  -- -1: being emptied (jq._storage_worth_emptying)
     where s.generation = p_generation;
    return query select case when v_truncated then 'truncated' else 'moving' end, v_moved;
end
$$;

-- Brings jobs of jobs_waiting that fall due within the horizon into the
-- current generation (at most p_move_limit, soonest first), under the
-- partition's ACCESS EXCLUSIVE lock as any move (waiting for it 50 ms, or
-- not at all when p_may_wait is false). Returns how many, or null when the
-- lock was not granted in time.
drop function if exists jq._storage_promote_waiting(timestamptz, integer);  -- an unreleased build's
create or replace function jq._storage_promote_waiting(p_due_before timestamptz, p_move_limit integer, p_may_wait boolean)
returns integer
language plpgsql
as $$
declare
    v_moved integer;
begin
    if not exists (select 1 from jq.jobs_waiting w where w.run_at <= p_due_before) then
        return 0;
    end if;
    if not jq._storage_lock('jobs_waiting', case when p_may_wait then interval '50 ms' else interval '0' end) then
        return null;
    end if;
    -- The ids first, then delete by id = any(array), as in jq._storage_empty (a plan that cannot go wrong).
    execute format(
        'with gone as (
             delete from jq.jobs_waiting w
              where w.id = any(array(select d.id from jq.jobs_waiting d where d.run_at <= $1
                                      order by d.run_at limit $2))
             returning w.*
         )
         insert into jq.jobs (%1$s, generation)
         select %2$s, $3 from gone g', jq._jobs_columns(''), jq._jobs_columns('g.'))
        using p_due_before, p_move_limit, jq._storage_current();
    get diagnostics v_moved = row_count;
    return v_moved;
end
$$;

-- The marks of jq.queue_waiters (migration 14) rotate with the jobs: the
-- generation's partition, when it has a quarter of p_min_bytes
-- (settings.rotation_min_bytes) or more on disk (at least a page), is locked under ACCESS
-- EXCLUSIVE (jq._storage_lock, as the jobs'), its marks are copied into the
-- current generation (worker, backend_pid and since kept) and it is
-- TRUNCATEd. Marks are a few per worker and queue, so no move limit. Returns
-- 'marks truncated' (how many moved), 'marks busy' when the lock was not
-- granted in time (tried again next call), or no row when no mark moved
-- (too little on disk, only dead versions, or the slot came round meanwhile).
-- Each truncation is recorded in jq.storage_generations (marks_*), which
-- jq_storage reports.
-- p_may_wait false: the lock only if free at once.
drop function if exists jq._storage_rotate_marks(smallint);  -- unreleased builds'
drop function if exists jq._storage_rotate_marks(smallint, boolean);
create or replace function jq._storage_rotate_marks(p_generation smallint, p_min_bytes integer, p_may_wait boolean)
returns table(outcome text, moved integer)
language plpgsql
as $$
declare
    v_part text := 'queue_waiters_g' || p_generation;
    v_target smallint;
    v_moved integer;
begin
    if pg_relation_size(format('jq.%I', v_part)::regclass) < greatest(p_min_bytes / 4, 1) then
        return;
    end if;
    if not jq._storage_lock(v_part, case when p_may_wait then interval '50 ms' else interval '0' end) then
        return query select 'marks busy', 0;
        return;
    end if;
    v_target := jq._storage_current();
    if v_target = p_generation then  -- the slot came round while we waited
        return;
    end if;
    -- Nothing else can touch the partition now, so copy, then truncate. A
    -- mark already in the current generation (it cannot be, jq_set_waiting
    -- writes one per queue and worker) would be the same information.
    execute format('insert into jq.queue_waiters (queue, worker, backend_pid, since, generation)
                    select w.queue, w.worker, w.backend_pid, w.since, $1 from jq.%I w
                    on conflict do nothing', v_part)
       using v_target;
    get diagnostics v_moved = row_count;
    execute format('truncate jq.%I', v_part);
    update jq.storage_generations g
       set marks_truncated_at = clock_timestamp(), marks_truncations = g.marks_truncations + 1,
           marks_moved = g.marks_moved + v_moved
     where g.generation = p_generation;
    if v_moved > 0 then
        return query select 'marks truncated', v_moved;
    end if;
end
$$;

create or replace function jq.jq_storage_rotate()
returns table(generation smallint, outcome text, moved integer)
language plpgsql
security definer
set search_path = jq, pg_catalog, pg_temp
set standard_conforming_strings = on
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
set constraint_exclusion = off
set lock_timeout = '250ms'
as $$
declare
    v_settings  jq.settings;
    v_now       timestamptz := jq._now();
    v_slot      smallint := jq._storage_current();
    v_moved     integer;
    v_gen       smallint;
    v_outcome   text;
    v_holding   boolean := false;  -- a partition's ACCESS EXCLUSIVE lock is held: every claim waits
begin
    if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'jq_storage_rotate needs READ COMMITTED, not %', current_setting('transaction_isolation')
              using errcode = '25001',
                    hint = 'Call it outside an explicit transaction: a snapshot older than its lock would miss rows it must move.';
    end if;
    if not jq._storage_try_rotation_lock() then
        return query select null::smallint, 'rotating elsewhere', 0;
        return;
    end if;
    -- pg_dump takes its snapshot before it locks the tables: a truncation in
    -- between would leave the dump without the moved rows (TRUNCATE is not
    -- MVCC-safe). While a pg_dump is connected to this database, wait.
    if exists (select 1 from pg_stat_activity a
                where a.datid = (select d.oid from pg_database d where d.datname = current_database())
                  and a.application_name = 'pg_dump' and a.pid <> pg_backend_pid()) then
        return query select g.gen, 'busy', 0 from unnest(array[0, 1, 2, 3]::smallint[]) as g(gen);
        return;
    end if;
    select * into v_settings from jq.settings;
    -- The oldest generation first (the next slot's), then the one just left.
    -- Its marks of jq.queue_waiters follow the jobs (their move may have used
    -- some up), unless the generation is current or its jobs partition busy;
    -- their row comes first, so a reader keyed by generation keeps the jobs'.
    -- Locks are held until the call commits, so only the first lock taken may
    -- be waited for: once one is held, the others are taken only if free at
    -- once (else busy, and waited for at the next call), because a wait
    -- meanwhile would stall every claim and enqueue behind the held lock too.
    foreach v_gen in array array[((v_slot + 1) % 3)::smallint, ((v_slot + 2) % 3)::smallint] loop
        select r.outcome, r.moved into v_outcome, v_moved
          from jq._storage_rotate_generation(v_gen, v_now + v_settings.waiting_horizon,
                                             v_settings.rotation_move_limit, v_settings.rotation_min_bytes,
                                             not v_holding) r;
        v_holding := jq._storage_holding_a_lock();
        if v_outcome in ('truncated', 'moving', 'empty', 'small', 'draining') then
            return query select v_gen, m.outcome, m.moved
                           from jq._storage_rotate_marks(v_gen, v_settings.rotation_min_bytes, not v_holding) m;
            v_holding := jq._storage_holding_a_lock();
        end if;
        return query select v_gen, v_outcome, v_moved;
    end loop;
    v_moved := jq._storage_promote_waiting(v_now + v_settings.waiting_horizon,
                                           least(v_settings.rotation_move_limit, 500), not v_holding);  -- MOVE_BATCH
    return query select 3::smallint, case when v_moved is null then 'busy' else 'promoted' end, coalesce(v_moved, 0);
end
$$;
comment on function jq.jq_storage_rotate() is
    'Empty and TRUNCATE the generations of jq.jobs that no longer take rows (live rows move to the current one, or to jobs_waiting when due beyond settings.waiting_horizon), and bring waiting jobs due within the horizon back -> one row per generation (generation, outcome: truncated/moving/empty/small/current/draining/busy/promoted, moved; empty: untouched since its truncation (no heap page, each index its metapage only); small: under settings.rotation_min_bytes on disk, indexes and TOAST included, kept; draining: a backlog the claims work down), preceded by one for its jq.queue_waiters marks when some moved (marks truncated, with how many moved into the current generation) or their lock was refused (marks busy). Gives up (busy) without waiting when another session holds a partition idle in transaction, waiting, prepared or for over 250 ms, else takes it only if free at once, then (on the next calls, while refused in a row) waits for the statements in flight 50 ms, then 250 ms; once it holds one partition''s lock it waits for no other (busy unless free at once); busy throughout while a pg_dump is connected. Moves at most 500 rows of each kind per call (moving: call again at once). Call every 2 s from one session, outside an explicit transaction (pyjq workers do).';

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
-- CHECK constraints never exclude a partition of jq.jobs: proving so took up to half of planning (docs/design.md, Plans).
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
    'The partitions of jq.jobs, then those of jq.queue_waiters -> (generation, partition_name, role: current/previous/oldest/waiting, live_rows and dead_rows from the statistics, bytes with indexes and TOAST, truncated_at, truncations, moved): what jq_storage_rotate keeps small.';
