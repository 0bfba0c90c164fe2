"""What a generation's truncation holds its lock for, and what the two other
ways to empty a generation would hold it for (issue #16, point 5). Prints one
JSON object.

    python bench/truncation_cost.py               # 100,000-job generations, 8 rounds; own durable server
    python bench/truncation_cost.py --jobs 30000 --rounds 4
    python bench/truncation_cost.py --dsn "host=... dbname=..."   # an existing database without jobs

Every part empties a generation the way the claims leave one: `--jobs` rows
inserted, deleted, then counted once (the rotation's look before it locks,
which prunes the pages). Then, timed with `time.perf_counter` around each
statement, each part's locked section (ACCESS EXCLUSIVE taken first, so the
wait for it is not counted):

* `truncation`: what `jq._storage_empty` does under the lock of a partition
  of jq.jobs: the look for rows left (up to 1,001), `TRUNCATE`, `COMMIT`;
  and the same on a generation already empty (the commit without a large
  file to drop);
* `rotate_call`: one whole `jq_storage_rotate()` call that truncates the
  previous slot's generation (the lock is held for part of it);
* `swap_partition`: a prebuilt empty table swapped in (`DETACH PARTITION`,
  `ATTACH PARTITION`) on a copy of jq.jobs; and whether its lock can be had
  while another session holds an open transaction that enqueued one job,
  against the `TRUNCATE` of an old generation beside it;
* `subpartition_swap`: each generation a partitioned table of one leaf; the
  leaf swapped for an empty spare (`DETACH` / `ATTACH` under the
  generation's lock), and the old leaf truncated afterwards, when nothing
  waits for it;
* `planning`: the planning time (`EXPLAIN (SUMMARY)`) of two claim-shaped
  statements on a flat copy of jq.jobs and on the subpartitioned one.

Figures are medians of the rounds, and ratios against the truncation
measured in the same run.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from common import rnd
from fairness import SQL_DIR, sql_fingerprint
from standalone import run_standalone

ROWS = """insert into {table} (id, queue, type, payload, priority, run_at, status, attempts, max_attempts,
                              created_at, generation)
          select gen_random_uuid(), 'probe', 'probe', '{{}}', 0, now(), 'pending', 0, 5, now(), {generation}
            from generate_series(1, %s)"""
LOOK = "select coalesce(array_agg(s.id), '{{}}') from (select x.id from {table} x limit 1001) s"


def drained(conn: psycopg.Connection, table: str, generation: int, jobs: int) -> None:
    """A generation as the claims leave it: every row deleted, then counted once."""
    conn.execute(ROWS.format(table=table, generation=generation), (jobs,))  # type: ignore[arg-type]
    conn.execute(f"delete from {table} where generation = {generation}")  # type: ignore[arg-type]
    conn.execute(f"select count(*) from {table} where generation = {generation}")  # type: ignore[arg-type]


def timed(steps: list[tuple[str, Callable[[], Any]]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, step in steps:
        t0 = time.perf_counter()
        step()
        out[name] = (time.perf_counter() - t0) * 1000
    return out


def medians(rounds: list[dict[str, float]]) -> dict[str, Any]:
    keys = rounds[0].keys() if rounds else []
    return {(k if k == "bytes" else f"{k}_ms"): rnd(statistics.median(r[k] for r in rounds), 2) for k in keys} | {
        "rounds": len(rounds)
    }


def locked_truncation(conn: psycopg.Connection, part: str, fill: bool, jobs: int) -> dict[str, float]:
    generation = int(part[-1])
    if fill:
        drained(conn, "jq.jobs", generation, jobs)
    size = conn.execute(f"select pg_total_relation_size('jq.{part}')").fetchone()[0]  # type: ignore[arg-type,index]
    conn.execute("begin")
    conn.execute(f"lock table jq.{part} in access exclusive mode")  # type: ignore[arg-type]
    steps = timed(
        [
            ("look", lambda: conn.execute(LOOK.format(table=f"jq.{part}"))),  # type: ignore[arg-type]
            ("truncate", lambda: conn.execute(f"truncate jq.{part}")),  # type: ignore[arg-type]
            ("commit", lambda: conn.execute("commit")),
        ]
    )
    return steps | {"held": sum(steps.values()), "bytes": size}


def truncation(conn: psycopg.Connection, jobs: int, rounds: int) -> dict[str, Any]:
    full = [locked_truncation(conn, "jobs_g0", True, jobs) for _ in range(rounds)]
    empty = [locked_truncation(conn, "jobs_g0", False, jobs) for _ in range(rounds)]
    return {"drained": medians(full), "already_empty": medians(empty), "jobs": jobs}


def slot_start(conn: psycopg.Connection) -> int:
    """Waits for the next slot boundary; returns the new current generation."""
    first = conn.execute("select jq._storage_current()").fetchone()[0]  # type: ignore[index]
    while (now := conn.execute("select jq._storage_current()").fetchone()[0]) == first:  # type: ignore[index]
        time.sleep(0.005)
    return int(now)


def rotate_call(conn: psycopg.Connection, jobs: int, rounds: int) -> dict[str, Any]:
    """The previous slot's generation drained, then one jq_storage_rotate() that truncates it."""
    calls, missed = [], 0
    for _ in range(rounds):
        previous = (slot_start(conn) + 2) % 3  # not current again for two boundaries
        drained(conn, "jq.jobs", previous, jobs)
        t0 = time.perf_counter()
        rows = conn.execute("select generation, outcome from jq.jq_storage_rotate()").fetchall()
        dt = (time.perf_counter() - t0) * 1000
        if (previous, "truncated") in rows:
            calls.append({"call": dt})
        else:
            missed += 1
    return medians(calls) | {"missed": missed}


def copy_of_jobs(conn: psycopg.Connection, name: str, leaf: bool) -> None:
    """alt.<name>: jq.jobs' columns, constraints and indexes, partitioned by generation."""
    conn.execute(
        f"create table alt.{name} (like jq.jobs including defaults including constraints including storage)"  # type: ignore[arg-type]
        " partition by list (generation)"
    )
    index_like(conn, "jq.jobs", f"alt.{name}")
    for g in (0, 1, 2):
        sub = "" if leaf else " partition by list (generation)"
        conn.execute(f"create table alt.{name}_g{g} partition of alt.{name} for values in ({g}){sub}")  # type: ignore[arg-type]
        if not leaf:
            conn.execute(f"create table alt.{name}_g{g}_a partition of alt.{name}_g{g} for values in ({g})")  # type: ignore[arg-type]
    conn.execute(f"create table alt.{name}_w partition of alt.{name} for values in (3)")  # type: ignore[arg-type]


def index_like(conn: psycopg.Connection, source: str, target: str) -> None:
    """The indexes of source's partitioned table on target, unnamed (PostgreSQL names them)."""
    rows = conn.execute(
        "select pg_get_indexdef(i.indexrelid), c.contype is not null from pg_index i"
        " left join pg_constraint c on c.conindid = i.indexrelid and c.contype = 'p'"
        " where i.indrelid = %s::regclass",
        (source,),
    ).fetchall()
    for definition, primary in rows:
        columns = re.search(r"USING btree \((.*?)\)( WHERE .*)?$", definition)
        assert columns, definition
        if primary:
            conn.execute(f"alter table {target} add primary key ({columns.group(1)})")  # type: ignore[arg-type]
        else:
            conn.execute(f"create index on {target} ({columns.group(1)}){columns.group(2) or ''}")  # type: ignore[arg-type]


def spare_leaf(conn: psycopg.Connection, parent: str, spare: str) -> None:
    conn.execute(f"create table {spare} (like {parent} including defaults including constraints including storage)")  # type: ignore[arg-type]
    index_like(conn, parent, spare)


def swap_partition(conn: psycopg.Connection, jobs: int, rounds: int) -> dict[str, Any]:
    """alt.flat_g0 swapped for an empty table with its indexes: DETACH, ATTACH, under jq.jobs' copy's lock."""
    out = []
    for i in range(rounds):
        spare = f"alt.flat_spare_{i}"
        spare_leaf(conn, "alt.flat", spare)
        drained(conn, "alt.flat", 0, jobs)
        conn.execute("begin")
        conn.execute("lock table alt.flat in access exclusive mode")  # DETACH's lock: the parent's
        steps = timed(
            [
                ("look", lambda: conn.execute(LOOK.format(table="alt.flat_g0"))),  # type: ignore[arg-type]
                ("detach_attach", lambda spare=spare: swap(conn, "alt.flat", "alt.flat_g0", spare, 0)),
                ("commit", lambda: conn.execute("commit")),
            ]
        )
        out.append(steps | {"held": sum(steps.values())})
        conn.execute(f"drop table alt.flat_g0_old_{i}")  # type: ignore[arg-type]
    return medians(out)


def swap(conn: psycopg.Connection, parent: str, part: str, spare: str, generation: int) -> None:
    """spare takes part's place and name; part stays, detached, as part_old_<n>."""
    n = spare.rsplit("_", 1)[-1]
    conn.execute(f"alter table {parent} detach partition {part}")  # type: ignore[arg-type]
    conn.execute(f"alter table {parent} attach partition {spare} for values in ({generation})")  # type: ignore[arg-type]
    conn.execute(f"alter table {part} rename to {part.split('.')[1]}_old_{n}")  # type: ignore[arg-type]
    conn.execute(f"alter table {spare} rename to {part.split('.')[1]}")  # type: ignore[arg-type]


def lock_beside_an_open_enqueue(conn: psycopg.Connection, dsn: str) -> dict[str, Any]:
    """Another session enqueued a job and has not committed: which lock can the rotation still have?"""
    with psycopg.connect(dsn) as other:
        other.execute("select jq.jq_enqueue('probe', '{}', 'probe')")  # its transaction stays open
        current = conn.execute("select jq._storage_current()").fetchone()[0]  # type: ignore[index]
        old = (current + 1) % 3
        return {
            "truncate_old_generation": can_lock(conn, f"jq.jobs_g{old}"),
            "detach_from_jq_jobs": can_lock(conn, "jq.jobs"),
        }


def can_lock(conn: psycopg.Connection, table: str) -> bool:
    try:
        with conn.transaction():
            conn.execute(f"lock table {table} in access exclusive mode nowait")  # type: ignore[arg-type]
            raise _Granted
    except _Granted:
        return True
    except psycopg.errors.LockNotAvailable:
        return False


class _Granted(Exception):
    """Rolls the probe's lock back."""


def subpartition_swap(conn: psycopg.Connection, jobs: int, rounds: int) -> dict[str, Any]:
    """alt.sub_g0's one leaf swapped for the empty spare; the old leaf, truncated after, is the next spare."""
    out = []
    leaf, spare = "alt.sub_g0_a", "alt.sub_g0_b"
    spare_leaf(conn, "alt.sub", spare)
    for _ in range(rounds):
        drained(conn, "alt.sub", 0, jobs)
        conn.execute("begin")
        conn.execute("lock table alt.sub_g0 in access exclusive mode")  # the generation's, as a TRUNCATE's
        steps = timed(
            [
                ("look", lambda leaf=leaf: conn.execute(LOOK.format(table=leaf))),  # type: ignore[arg-type]
                ("detach_attach", lambda leaf=leaf, spare=spare: leaf_swap(conn, leaf, spare)),
                ("commit", lambda: conn.execute("commit")),
            ]
        )
        after = timed([("truncate_after", lambda leaf=leaf: conn.execute(f"truncate {leaf}"))])  # type: ignore[arg-type]
        out.append(steps | {"held": sum(steps.values())} | after)
        leaf, spare = spare, leaf
    return medians(out)


def leaf_swap(conn: psycopg.Connection, leaf: str, spare: str) -> None:
    conn.execute(f"alter table alt.sub_g0 detach partition {leaf}")  # type: ignore[arg-type]
    conn.execute(f"alter table alt.sub_g0 attach partition {spare} for values in (0)")  # type: ignore[arg-type]


CLAIM_SHAPED = {
    "select_for_update": """select id from {t} where queue = 'probe' and status = 'pending' and not deferred
                            order by priority desc, coalesce(tenant, ''), run_at limit 10 for update skip locked""",
    "update_by_ids": """update {t} set status = 'processing', locked_by = 'w', locked_until = now()
                         where id = any(array(select id from {t} where queue = 'probe' and status = 'pending'
                                              and not deferred order by priority desc, run_at limit 10
                                              for update skip locked)) returning id""",
}


def planning(conn: psycopg.Connection, samples: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, sql in CLAIM_SHAPED.items():
        times: dict[str, list[float]] = {"flat": [], "subpartitioned": []}
        for _ in range(samples):
            for label, table in (("flat", "alt.flat"), ("subpartitioned", "alt.sub")):
                plan = conn.execute(f"explain (summary) {sql.format(t=table)}").fetchall()  # type: ignore[arg-type]
                found = re.search(r"Planning Time: ([\d.]+)", "\n".join(r[0] for r in plan))
                assert found, plan
                times[label].append(float(found.group(1)))
        flat, sub = (statistics.median(times[k]) for k in ("flat", "subpartitioned"))
        out[name] = {"flat_ms": rnd(flat, 3), "subpartitioned_ms": rnd(sub, 3), "ratio": rnd(sub / flat, 2)}
    return out


def run(dsn: str, jobs: int, rounds: int, log: Callable[[str], None]) -> dict[str, Any]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("drop schema if exists alt cascade")
        conn.execute("create schema alt")
        copy_of_jobs(conn, "flat", leaf=True)
        copy_of_jobs(conn, "sub", leaf=False)
        log("truncation")
        result: dict[str, Any] = {"truncation": truncation(conn, jobs, rounds)}
        log("rotate_call")
        result["rotate_call"] = rotate_call(conn, jobs, rounds)
        log("swap_partition")
        result["swap_partition"] = swap_partition(conn, jobs, rounds) | {
            "lock_beside_an_open_enqueue": lock_beside_an_open_enqueue(conn, dsn)
        }
        log("subpartition_swap")
        result["subpartition_swap"] = subpartition_swap(conn, jobs, rounds)
        log("planning")
        result["planning"] = planning(conn, 200)
        conn.execute("drop schema alt cascade")
    held = result["truncation"]["drained"]["held_ms"]
    result["held_over_truncation"] = {
        k: rnd(result[k]["held_ms"] / held, 2) for k in ("swap_partition", "subpartition_swap")
    }
    return result | sql_fingerprint(dsn)


def refuse_a_queue_in_use(conn: psycopg.Connection) -> None:
    """The probe truncates jq.jobs_g0 and runs jq_storage_rotate: never on a queue that holds jobs."""
    installed = conn.execute("select to_regclass('jq.jobs') is not null").fetchone()[0]  # type: ignore[index]
    if installed and conn.execute("select exists (select 1 from jq.jobs)").fetchone()[0]:  # type: ignore[index]
        sys.exit("truncation_cost.py: jq.jobs in --dsn holds jobs; give it a database without jobs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsn", default=None, help="an existing database without jobs (default: a throwaway server)")
    ap.add_argument("--jobs", type=int, default=100_000, help="rows of each drained generation (default 100,000)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--out", default=None, help="also write the JSON here")
    args = ap.parse_args()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    run_standalone(
        "truncation_cost",
        args.dsn,
        SQL_DIR,
        lambda dsn: run(dsn, args.jobs, args.rounds, log),
        check=refuse_a_queue_in_use,
        out=args.out,
    )


if __name__ == "__main__":
    main()
