"""Small reads asked again of a ledger open read-only, answered as they were the first time.

A ledger open read-only on its file (:class:`ledger.store.store.Ledger`, not an overlay)
cannot change while it is open: DuckDB lets no process write a file another holds open, and
this process cannot hold it in the other mode (:func:`ledger.store.duck.connect`); the
open's ``meta`` is kept so already (:meth:`ledger.store.store.Ledger.head`). A read of the
books asks some questions twice: whether its derived tables are those of the ledger's rows
(:func:`ledger.audit.catchup.moved`), then, for the platform names, what they recorded up
to their head (:func:`ledger.store.streams.at_head`): the tables in the catalog, the rows of
``derived_state``, the chain hash at their head. Those reads (:data:`KEPT`, a few rows each)
are run once an open; they are forgotten, and asked each time again, once the open is made an
overlay (:meth:`ledger.store.store.Ledger.overlaid`), whose tables in memory are written.
"""

from __future__ import annotations

from typing import Any

from ledger.store.duck import TABLES_HERE

#: The statements (their exact text) whose rows are kept for the open.
KEPT = frozenset({
    TABLES_HERE,
    "SELECT key, value FROM derived_state",
    "SELECT hash FROM events WHERE position = ?",
    "SELECT coalesce(max(position), 0) FROM events",
})


class Kept:
    """The rows of the :data:`KEPT` reads run on one open, by statement and parameters; off
    (every read run) until :meth:`start`, and again after :meth:`stop`."""

    __slots__ = ("_rows", "_on")

    def __init__(self) -> None:
        self._rows: dict[tuple[str, tuple[Any, ...]], list[tuple[Any, ...]]] = {}
        self._on = False

    def start(self) -> None:
        """Keep rows from now on: the ledger is open read-only on its file."""
        self._on = True

    def stop(self) -> None:
        """Keep nothing more, and forget what was kept: the tables read may be written."""
        self._on = False
        self._rows.clear()

    def rows(self, con: Any, sql: str, params: list[Any] | None = None
             ) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` with ``params`` on ``con`` (a DuckDB connection): those kept
        when it is a :data:`KEPT` read asked already on this open.

        Raises:
            duckdb.Error: as ``execute`` (nothing is kept then).
        """
        if not self._on or sql not in KEPT:
            return con.execute(sql, params or []).fetchall()
        key = (sql, tuple(params or ()))
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = con.execute(sql, params or []).fetchall()
        return list(rows)


class Reads:
    """``con`` (a ledger's DuckDB connection) for a reader that asks it with ``execute`` and
    fetches the rows (:func:`ledger.audit.catchup.moved`), its :data:`KEPT` reads answered
    by ``kept``. DuckDB's errors are raised as they are."""

    __slots__ = ("_con", "_kept")

    def __init__(self, con: Any, kept: Kept) -> None:
        self._con = con
        self._kept = kept

    def execute(self, sql: str, params: list[Any] | None = None) -> Rows:
        """The rows of ``sql`` (:meth:`Kept.rows`), to fetch."""
        return Rows(self._kept.rows(self._con, sql, params))


class Rows:
    """Rows read, fetched as from a DuckDB cursor."""

    __slots__ = ("_rows",)

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None
