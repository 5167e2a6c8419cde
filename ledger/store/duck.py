"""DuckDB connections as handledger opens them.

DuckDB draws a progress bar on standard output while a query runs longer than two seconds,
which would put a line of bar characters at the head of what a command writes there (an
``export`` to standard output redirected to a file meant for re-import). Every connection the
store and the replay open goes through :func:`connect`, which turns it off; the commands draw
their own progress on standard error.
"""

from __future__ import annotations

try:
    # DuckDB's compiled module, which the ``duckdb`` package re-exports (the same connect, the
    # same connection and error classes): the store needs nothing more, and the package's own
    # Python layer (relations, expressions, its version looked up in the installed metadata)
    # takes longer to import than the compiled module itself, a cost every live action paid.
    import _duckdb as duckdb
except ImportError:  # a DuckDB whose compiled module is not importable on its own
    import duckdb


def connect(database: str = ":memory:", *, read_only: bool = False
            ) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect(database, read_only=read_only)`` with DuckDB's progress bar off.

    Raises:
        duckdb.Error: as ``duckdb.connect`` (a missing folder, a file another process holds,
            not a DuckDB file).
    """
    con = duckdb.connect(database, read_only=read_only)
    con.execute("SET enable_progress_bar = false")
    return con
