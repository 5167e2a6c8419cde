"""The bound on every amount: a module of its own, without pydantic, so that what checks or
prints amounts (:mod:`ledger.model.money`, the commands' text) loads without the event model.
"""

from __future__ import annotations

#: The largest chip amount (and money amount in minor units) an event may carry: 2**53 - 1,
#: 9,007,199,254,740,991. Larger amounts are refused when an event is validated, so at
#: import. Why this bound and not 2**63 - 1: the sum of up to 1,024 such amounts (a pot, a
#: session's total) still fits DuckDB's BIGINT, where the derived tables keep them; every
#: amount is exact as an IEEE double (JSON readers in other languages, DuckDB's JSON
#: functions); and it stays far below the engine's 10**18 stand-in for "no limit". It is 90
#: trillion dollars in cents.
MAX_CHIPS = 2**53 - 1
