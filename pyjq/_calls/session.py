"""Session settings pyjq sets on its connections: jq's clock and the HTTP
service's connection defaults. Not jq_* functions, but SQL all the same."""

from __future__ import annotations

from . import Scalar

__all__ = ["CONFIGURE_SERVICE_SESSION", "SET_ACTOR", "SET_CLOCK", "SET_STATEMENT_TIMEOUT"]

# Moves jq's clock (jq._now()) for the rest of the current transaction: an ISO timestamp.
SET_CLOCK: Scalar[str] = Scalar("select set_config('jq.now', %(now)s, true)")
# The HTTP service's connections: UTC (every timestamp read back is within Python's range and
# printed with Z), for the whole session. (PgBouncer in transaction mode keeps TimeZone per client.)
CONFIGURE_SERVICE_SESSION: Scalar[str] = Scalar("select set_config('timezone', 'UTC', false)")
# The HTTP service's statement timeout in milliseconds, for the current transaction only: a
# session-wide one would stay on a pooler's server connection for the next client.
SET_STATEMENT_TIMEOUT: Scalar[str] = Scalar("select set_config('statement_timeout', %(statement_timeout_ms)s, true)")
# Who acts, for jq.audit_log (jq._audit): for the rest of the transaction only.
SET_ACTOR: Scalar[str] = Scalar("select set_config('jq.actor', %(actor)s, true)")
