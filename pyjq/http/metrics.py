"""GET /metrics: jq_stats() in the Prometheus text format.

One gauge family per figure, labelled by queue. Each scrape reads jq_stats()
afresh into a throwaway registry, so the service holds no state of its own
and several replicas report the same numbers. Scale workers on
``jq_queue_oldest_ready_job_age_seconds`` (the age of the oldest job that
could run now), not on CPU: I/O-bound workers idle while the queue backs up.
"""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily

from .._calls.admin import QueueStats

__all__ = ["CONTENT_TYPE", "METRICS", "render"]

CONTENT_TYPE = CONTENT_TYPE_LATEST

# (metric name, jq_stats column, help)
METRICS = (
    ("jq_queue_ready_jobs", "ready", "Jobs ready to run now (pending, run_at reached)."),
    ("jq_queue_scheduled_jobs", "scheduled", "Jobs waiting for a future run_at (new, or waiting for a retry)."),
    ("jq_queue_running_jobs", "running", "Jobs leased by a worker."),
    ("jq_queue_dead_jobs", "dead", "Jobs in the dead-letter table."),
    (
        "jq_queue_oldest_ready_job_age_seconds",
        "oldest_ready_age",
        "Age of the oldest ready job (0 when none is ready): the autoscaling signal.",
    ),
)


class _StatsCollector:
    def __init__(self, rows: Iterable[QueueStats]):
        self.rows = list(rows)

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, column, help_text in METRICS:
            family = GaugeMetricFamily(name, help_text, labels=["queue"])
            for row in self.rows:
                value = getattr(row, column)
                if column == "oldest_ready_age":
                    value = value.total_seconds() if value is not None else 0.0
                family.add_metric([row.queue], float(value))
            yield family


def render(rows: Iterable[QueueStats]) -> bytes:
    """The exposition text for jq_stats() rows."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_StatsCollector(rows))
    return generate_latest(registry)
