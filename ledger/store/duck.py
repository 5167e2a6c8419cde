"""DuckDB connections as handledger opens them.

DuckDB draws a progress bar on standard output while a query runs longer than two seconds,
which would put a line of bar characters at the head of what a command writes there (an
``export`` to standard output redirected to a file meant for re-import). Every connection the
store and the replay open goes through :func:`connect`, which turns it off; the commands draw
their own progress on standard error.

A query that outgrows DuckDB's memory limit spills to DuckDB's temporary folder, by default
``.tmp`` in the working directory for a database in memory and ``<file>.tmp`` beside a file.
A read never creates a file where the user works (README "reads never write"), so a
connection in memory or to a file opened read-only spills instead into a folder of its own
in the system's temporary directory (:func:`tempfile.gettempdir`), made by DuckDB only when
it spills and removed when this process ends. A connection that writes the ledger keeps
``<file>.tmp`` (:mod:`ledger.store.spill`).
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import tempfile

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
    if read_only or database == ":memory:":
        folder = _spill_folder().replace("'", "''")
        con.execute(f"SET temp_directory = '{folder}'")
    return con


_PREFIX: list[str] = []  # this process's names of the folders its reads spill to
_SPILLS = itertools.count()


def _spill_folder() -> str:
    """A new folder name in the system's temporary directory, not made (DuckDB makes it if it
    spills); this process's folders are removed when it ends (one handler for all of them:
    a long ``serve`` opens many connections)."""
    if not _PREFIX:
        _PREFIX.append(os.path.join(tempfile.gettempdir(),
                                    f"handledger-{os.getpid()}-{os.urandom(4).hex()}-"))
        atexit.register(_remove_spills)
    return f"{_PREFIX[0]}{next(_SPILLS)}"


def _remove_spills() -> None:
    for folder in glob.glob(f"{glob.escape(_PREFIX[0])}*"):
        shutil.rmtree(folder, ignore_errors=True)
