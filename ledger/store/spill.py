"""DuckDB's memory during one long write transaction (a large import), kept flat.

DuckDB's default memory limit is most of the machine's memory, and inside a transaction it
keeps in memory every block of rows it has written to the file already (they are free to
drop: they are on disk), so an import of 100,000 hands held some 250 MB of them by its end.
A write capped with :func:`cap` lets DuckDB drop them, and write the derived tables' rows it
holds uncommitted to its temporary folder (``<ledger>.tmp``) when they do not fit.

What cannot be dropped is the transaction's part of the unique indexes (``hands``: hand id;
``events`` of a ledger of store version 1: position, and stream with seq; a new ledger's
events have none, :mod:`ledger.store.store`): DuckDB holds them in memory until the commit,
about 0.8 MB a thousand hands with the events' keys. So the cap is :data:`HEADROOM` above
what they take, raised after each append as they grow, and lifted before the commit, which
merges them into the ledger's (measured, with the events' keys: the commit of 100,000 hands
fails under a cap of 143 MB).
"""

from __future__ import annotations

from typing import Any

#: DuckDB's memory beyond its unique indexes during a capped write (bytes).
HEADROOM = 128 * 2**20


def limit(con: Any) -> str:
    """DuckDB's memory limit now, as ``SET memory_limit`` takes it."""
    return str(con.execute("SELECT current_setting('memory_limit')").fetchone()[0])


def cap(con: Any) -> None:
    """Cap DuckDB's memory at :data:`HEADROOM` above what its indexes take now."""
    (indexes,) = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()"
                             " WHERE tag = 'ART_INDEX'").fetchone()
    con.execute(f"SET memory_limit = '{(int(indexes) + HEADROOM) // 1024}KiB'")


def lift(con: Any, before: str) -> None:
    """Set DuckDB's memory limit back to ``before`` (:func:`limit`): DuckDB's default when it
    was (exactly: ``before`` is rounded to a tenth of its unit), else ``before``."""
    con.execute("RESET memory_limit")
    if limit(con) != before:  # a limit set before the cap, not DuckDB's default
        con.execute(f"SET memory_limit = '{before}'")
