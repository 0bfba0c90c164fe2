"""The limits jq's SQL functions enforce, as Python constants.

The SQL functions are the judges (they raise 22001/22023 with the argument's
name); Python reads these only to fail early with the same rule (the HTTP
models, the CLI's option parsing, the worker's queue configuration). Keep them
equal to sql/functions/*.sql; tests/test_limits.py checks each one against
what the installed functions accept and refuse at the boundary.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

# Queue names: letters, digits and _ . : - ; 1..64 characters (longer: 22001).
QUEUE_NAME_MAX = 64
QUEUE_NAME_CHARS = r"A-Za-z0-9_.:-"
QUEUE_NAME_PATTERN = rf"^[{QUEUE_NAME_CHARS}]{{1,{QUEUE_NAME_MAX}}}$"
QUEUE_NAME = re.compile(QUEUE_NAME_PATTERN)

# Schedule names: jq takes any non-blank name of 1..128 characters. The HTTP
# API, where a new name travels as one URL path segment, keeps to this safe
# alphabet (a letter or digit first, then queue-name characters).
SCHEDULE_NAME_MAX = 128
SCHEDULE_NAME_PATTERN = rf"^[A-Za-z0-9][{QUEUE_NAME_CHARS}]{{0,{SCHEDULE_NAME_MAX - 1}}}$"

# Text lengths, in characters (longer: 22001; empty or blank: 22023).
TYPE_MAX = 128
TENANT_MAX = 128
IDEMPOTENCY_KEY_MAX = 255
CONCURRENCY_KEY_MAX = 255
WORKER_NAME_MAX = 255
CRON_MAX = 255
TIMEZONE_MAX = 64  # longer names are refused as unknown time zones (22023)
# Not a SQL limit: the HTTP API's bound on the error text of a retry request
# (jq_retry_dead compares fingerprints, and jq_fail keeps the first 8000 characters).
ERROR_TEXT_MAX = 10000

# A job's metadata: an object of strings, at most this many bytes as JSON text (over: 54000).
METADATA_MAX_BYTES = 8192

# Numbers (outside: 22023).
PRIORITY_MIN, PRIORITY_MAX = -32768, 32767
MAX_ATTEMPTS_MIN, MAX_ATTEMPTS_MAX = 1, 1000
JITTER_SECONDS_MIN, JITTER_SECONDS_MAX = 0, 86400
CLAIM_LIMIT_MIN, CLAIM_LIMIT_MAX = 1, 1000  # jq_claim's p_limit
SCHEDULES_DUE_LIMIT_MAX = 100000  # jq_schedules_due's and jq_schedules_fire_due's p_limit (from 1)
RETRY_DEAD_LIMIT_MIN = 1  # jq_retry_dead's p_limit (or null: no limit)
ENQUEUE_MANY_MAX = 10000  # jobs per jq_enqueue_many call
WEIGHT_MIN, WEIGHT_MAX = 1, 1000
TENANT_MAX_RUNNING_MIN, TENANT_MAX_RUNNING_MAX = 0, 1000000  # 0 pauses the tenant
KEY_MAX_RUNNING_MIN, KEY_MAX_RUNNING_MAX = 1, 1000000
INTEGER_MAX = 2**31 - 1  # PostgreSQL integer: the largest limit an integer argument can carry

# Intervals (outside: 22023).
LEASE_MIN, LEASE_MAX = timedelta(seconds=1), timedelta(days=7)
RETRY_IN_MIN, RETRY_IN_MAX = timedelta(0), timedelta(days=365)  # jq_fail's p_retry_in

# Timestamps jq stores: within what both PostgreSQL and Python can hold.
RUN_AT_MIN = datetime(1, 1, 2, tzinfo=UTC)
RUN_AT_MAX = datetime(9999, 12, 30, tzinfo=UTC)
