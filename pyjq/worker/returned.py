"""A handler's return value, as the job's result.

Whatever a handler returns is stored with the job's history record
(``jq.job_history.result``, shown by ``jq_status``), so it must be JSON: the
executor encodes it once, here, when the handler returns, and an attempt
whose value cannot be stored fails like any other error (and is retried).
None stores nothing.

jq_complete measures a result by the UTF-8 bytes of its JSON text as
PostgreSQL prints it and refuses one over ``jq.settings.max_result_bytes``
(the whole call, 54000). The JSON text made here has PostgreSQL's separators
(``", "`` and ``": "``) and raw UTF-8, so its size is the one jq_complete
sees, but for numbers PostgreSQL spells differently (``1e100`` is printed
with all its digits): the completer checks the size before it writes, and
turns a result jq_complete still refuses into a failed attempt of its own.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["UnstorableResult", "encode", "too_large"]

# One encoder for every result (json.dumps with arguments builds one per call: 4x the cost).
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
# json writes U+0000 as \u0000; a backslash before it that is itself escaped does not count.
_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


class UnstorableResult(ValueError):
    """The handler returned a value jq cannot store as JSON."""


def encode(value: Any) -> tuple[str | None, int]:
    """(JSON text, its size in bytes) of a handler's return value; (None, 0) for None.

    Raises UnstorableResult for what is not JSON: objects json cannot encode,
    NaN and infinities, and text holding U+0000 (which jsonb refuses)."""
    if value is None:
        return None, 0
    try:
        text = _ENCODER.encode(value)
        size = len(text) if text.isascii() else len(text.encode())
    except (TypeError, ValueError, OverflowError, RecursionError, UnicodeError) as exc:
        raise UnstorableResult(f"result is not JSON-serialisable: {type(exc).__name__}: {exc}") from exc
    if "\\u0000" in text and _NUL.search(text):
        raise UnstorableResult("result is not storable: its text holds U+0000 (NUL), which jsonb refuses")
    return text, size


def too_large(size: int, limit: int) -> str:
    """The error text of an attempt whose result is over the bound."""
    return f"result of {size:,} bytes exceeds jq.settings.max_result_bytes ({limit:,})"
