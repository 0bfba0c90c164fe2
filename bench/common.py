"""Shared helpers of the benchmark suite: child processes that start on a
signal, percentiles, and small database helpers.

Worker processes (ours and the peers') follow one protocol, so that process
start-up, imports and connecting are never timed:

    child:  prints {"ready": true} on stdout, then waits for a line on stdin;
    parent: once every child is ready, writes "go" to each;
    child:  notes t0 = time.time(), works, prints one JSON line of results
            (with t0 and t1) and exits.

A child in continuous mode (a worker that runs until told to stop) is stopped
with SIGTERM and prints its results on the way out.
"""

from __future__ import annotations

import json
import math
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
LOGS = REPO / ".tmp" / "bench"


def child_ready() -> None:
    """In a child: say ready, wait for the parent's go."""
    print(json.dumps({"ready": True}), flush=True)
    line = sys.stdin.readline()
    if not line:
        raise SystemExit(0)  # the parent went away


def child_result(result: dict[str, Any]) -> None:
    print(json.dumps(result, default=str), flush=True)


class Child:
    """A child process speaking the ready/go protocol; stderr goes to .tmp/bench/NAME.log."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str] | None = None):
        LOGS.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.log_path = LOGS / f"{name}.log"
        self._log = open(self.log_path, "w")  # noqa: SIM115 - the child's stderr, kept as long as this Child
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=REPO,
            start_new_session=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _next_json(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no answer within {timeout:.0f} s (see {self.log_path})")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"{self.name} exited with {self.proc.wait()} (see {self.log_path}):\n" + self.tail())
            line = line.strip()
            if line.startswith("{"):
                return json.loads(line)

    def wait_ready(self, timeout: float = 60.0) -> None:
        msg = self._next_json(timeout)
        if not msg.get("ready"):
            raise RuntimeError(f"{self.name}: expected ready, got {msg}")

    def go(self) -> None:
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def result(self, timeout: float = 600.0) -> dict[str, Any]:
        msg = self._next_json(timeout)
        self.proc.wait(timeout=30)
        return msg

    def terminate(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def tail(self, n: int = 3000) -> str:
        self._log.flush()
        try:
            return self.log_path.read_text()[-n:]
        except OSError:
            return ""


def start_all(children: list[Child], timeout: float = 60.0) -> None:
    for c in children:
        c.wait_ready(timeout)
    for c in children:
        c.go()


def cleanup(children: list[Child]) -> None:
    for c in children:
        c.kill()


def percentile(values: list[float], p: float) -> float | None:
    """The p-th percentile (0-100), linear interpolation; None for no values."""
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def latency_summary(ms: list[float]) -> dict[str, Any]:
    return {
        "count": len(ms),
        "p50_ms": _r(percentile(ms, 50)),
        "p95_ms": _r(percentile(ms, 95)),
        "p99_ms": _r(percentile(ms, 99)),
        "max_ms": _r(max(ms) if ms else None),
    }


def _r(x: float | None, nd: int = 2) -> float | None:
    return None if x is None else round(x, nd)


def rnd(x: float | None, nd: int = 1) -> float | None:
    return _r(x, nd)


def py() -> str:
    """The interpreter to run children with: this one (the project's .venv)."""
    return sys.executable
