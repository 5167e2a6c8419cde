"""``handledger sql``: one read-only statement over the ledger, with a row cap and a time limit.

The statement runs on a connection to a ledger opened read-only (or its in-memory overlay),
with file access outside the ledger switched off; only a single ``SELECT`` (``WITH``,
``DESCRIBE``, ``SHOW`` …) or ``EXPLAIN`` is accepted. Rows are fetched in batches of
:data:`BATCH`, and no more than the cap are kept: a query of millions of rows costs the memory
of the cap. A timer thread interrupts DuckDB (``connection.interrupt()``) when the time limit
is up.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from ledger.model.errors import LedgerError
from ledger.store.duck import duckdb

ALLOWED = ("SELECT", "EXPLAIN")
#: Rows fetched from DuckDB at a time.
BATCH = 2_000
#: Defaults of ``sql --max-rows`` and ``sql --timeout`` (seconds).
MAX_ROWS = 10_000
TIMEOUT = 30.0


@dataclass(frozen=True)
class SqlResult:
    """A statement's ``columns`` and its first ``rows``; ``more``: it had rows beyond them
    (the cap stopped it); ``types``: each column's DuckDB type as text (``JSON``,
    ``VARCHAR[]``, ``HUGEINT``), in the order of ``columns``."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    more: bool = False
    types: list[str] = field(default_factory=list)


def query(con: Any, sql: str, *, max_rows: int = MAX_ROWS, timeout: float | None = TIMEOUT
          ) -> SqlResult:
    """Run one read-only statement on ``con`` (see the module doc): at most ``max_rows``
    rows, within ``timeout`` seconds (None: no limit).

    Raises:
        LedgerError: another kind of statement, several statements, the time limit reached
            (``sql: stopped after 30 s, its time limit (--timeout S allows more)``), or a
            DuckDB error.
    """
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as e:
        raise LedgerError(f"sql: {e}") from e
    if len(statements) != 1:
        raise LedgerError(f"sql takes exactly one statement, got {len(statements)}")
    kind = statements[0].type.name
    if kind not in ALLOWED:
        word = (statements[0].query.split() or [kind])[0].upper()  # INSTALL, not LOAD
        raise LedgerError(f"sql is read-only: {word} is not allowed (use SELECT)")
    fired = threading.Event()

    def stop() -> None:
        fired.set()
        con.interrupt()

    timer = threading.Timer(timeout, stop) if timeout is not None else None
    try:
        con.execute("SET enable_external_access = false")
        if timer is not None:
            timer.start()
        cursor = con.execute(sql)
        columns = [d[0] for d in cursor.description or []]
        types = [str(d[1]) for d in cursor.description or []]
        rows: list[tuple[Any, ...]] = []
        while len(rows) < max_rows:
            batch = cursor.fetchmany(min(BATCH, max_rows - len(rows)))
            if not batch:
                return SqlResult(columns, rows, types=types)
            rows.extend(batch)
        return SqlResult(columns, rows, more=cursor.fetchone() is not None, types=types)
    except duckdb.Error as e:
        if fired.is_set():
            raise LedgerError(f"sql: stopped after {timeout:g} s, its time limit (--timeout "
                              "SECONDS allows more)") from e
        if isinstance(e, duckdb.InterruptException):
            raise KeyboardInterrupt from e
        raise LedgerError(f"sql: {e}") from e
    finally:
        if timer is not None:
            timer.cancel()
