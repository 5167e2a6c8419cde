"""DuckDB's memory during one long write transaction (a large import), kept flat.

DuckDB's default memory limit is most of the machine's memory, and inside a transaction it
keeps in memory every block of rows it has written to the file already (they are free to
drop: they are on disk), so an import of 100,000 hands held some 250 MB of them by its end.
A write capped with :func:`cap` lets DuckDB drop them, and write the derived tables' rows it
holds uncommitted to its temporary folder (``<ledger>.tmp``) when they do not fit.

What cannot be dropped is the transaction's part of the unique indexes (``events`` of a
ledger of store version 1: position, and stream with seq; a new ledger's events have none,
:mod:`ledger.store.store`, and the derived ``hands`` table has none either,
:mod:`replay.tables`): DuckDB holds them in memory until the commit, about 0.8 MB a thousand
hands with the events' keys. So the cap is :data:`HEADROOM` above what they take, raised after
each append as they grow. The commit merges them into the ledger's (measured, with the events'
keys: the commit of 100,000 hands fails under a cap of 143 MB), so where they take more than
:data:`SMALL_INDEXES` the cap is lifted before the commit; otherwise (a new ledger: only
``meta``'s and ``derived_state``'s keys) the commit too stays under it, and memory does not
rise at the end of a large import either.

The headroom is what the import's memory grows to: at 128 MiB DuckDB reached it only after
some 20,000 hands (an import of 100,000 hands peaked 70 MB above one of 10,000), at 64 MiB
already before 10,000 (bench/PROFILE.md); the derived tables' rows it then holds beyond it
go to ``<ledger>.tmp`` until the commit.
"""

from __future__ import annotations

from typing import Any

#: DuckDB's memory beyond its unique indexes during a capped write (bytes).
HEADROOM = 64 * 2**20
#: Indexes up to this size (bytes) leave the commit under the cap (a new ledger's small tables'
#: keys, ``meta`` and ``derived_state``: about 1 MiB after an import).
SMALL_INDEXES = 4 * 2**20


def limit(con: Any) -> str:
    """DuckDB's memory limit now, as ``SET memory_limit`` takes it."""
    return str(con.execute("SELECT current_setting('memory_limit')").fetchone()[0])


def indexes(con: Any) -> int:
    """The bytes DuckDB's unique indexes take in memory now."""
    (taken,) = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()"
                           " WHERE tag = 'ART_INDEX'").fetchone()
    return int(taken)


def cap(con: Any) -> None:
    """Cap DuckDB's memory at :data:`HEADROOM` above what its indexes take now."""
    con.execute(f"SET memory_limit = '{(indexes(con) + HEADROOM) // 1024}KiB'")


def commit_capped(con: Any) -> bool:
    """Whether the commit of a capped transaction may stay under the cap: its indexes are
    next to nothing (:data:`SMALL_INDEXES`), so it has none to merge."""
    return indexes(con) <= SMALL_INDEXES


def lift(con: Any, before: str) -> None:
    """Set DuckDB's memory limit back to ``before`` (:func:`limit`): DuckDB's default when it
    was (exactly: ``before`` is rounded to a tenth of its unit), else ``before``. The default
    (what ``RESET`` gives: most of the machine's memory, the same for every DuckDB instance
    of the process) is read once a process, not after every ``RESET``."""
    if _DEFAULT and _DEFAULT[0] != before:  # a limit set before the cap, not the default
        con.execute(f"SET memory_limit = '{before}'")
        return
    con.execute("RESET memory_limit")
    if not _DEFAULT:
        _DEFAULT.append(limit(con))
    if _DEFAULT[0] != before:
        con.execute(f"SET memory_limit = '{before}'")


#: DuckDB's default memory limit as :func:`limit` says it, once read (:func:`lift`).
_DEFAULT: list[str] = []
