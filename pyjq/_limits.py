"""The limits jq's SQL functions enforce, as Python constants.

The SQL functions are the judges (they raise 22001/22023 with the argument's
name); Python reads these only to fail early with the same rule (the HTTP
models, the CLI's option parsing, the worker's queue configuration). Keep them
equal to sql/functions/internal.sql; tests/test_limits.py compares them with
what the installed functions accept.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

# Queue names: letters, digits and _ . : - ; 1..64 characters.
QUEUE_NAME_MAX = 64
QUEUE_NAME_CHARS = r"A-Za-z0-9_.:-"
QUEUE_NAME_PATTERN = rf"^[{QUEUE_NAME_CHARS}]{{1,{QUEUE_NAME_MAX}}}$"
QUEUE_NAME = re.compile(QUEUE_NAME_PATTERN)

# Schedule names: a letter or digit first, then queue-name characters; 1..128.
SCHEDULE_NAME_MAX = 128
SCHEDULE_NAME_PATTERN = rf"^[A-Za-z0-9][{QUEUE_NAME_CHARS}]{{0,{SCHEDULE_NAME_MAX - 1}}}$"

TYPE_MAX = 128
TENANT_MAX = 128
IDEMPOTENCY_KEY_MAX = 255
CONCURRENCY_KEY_MAX = 255
WORKER_NAME_MAX = 255
CRON_MAX = 255
TIMEZONE_MAX = 64
ERROR_TEXT_MAX = 10000

PRIORITY_MIN, PRIORITY_MAX = -32768, 32767
MAX_ATTEMPTS_MIN, MAX_ATTEMPTS_MAX = 1, 1000
JITTER_SECONDS_MAX = 86400
CLAIM_LIMIT_MAX = 1000  # jq_claim's upper bound for p_limit
WEIGHT_MIN, WEIGHT_MAX = 1, 1000
TENANT_MAX_RUNNING_MAX = 1000000
KEY_MAX_RUNNING_MAX = 1000000

# Timestamps jq stores: within what both PostgreSQL and Python can hold.
RUN_AT_MIN = datetime(1, 1, 2, tzinfo=timezone.utc)
RUN_AT_MAX = datetime(9999, 12, 30, tzinfo=timezone.utc)
