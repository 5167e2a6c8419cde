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
from collections.abc import Iterator
from contextlib import contextmanager

try:
    # DuckDB's compiled module, which the ``duckdb`` package re-exports (the same connect, the
    # same connection and error classes): the store needs nothing more, and the package's own
    # Python layer (relations, expressions, its version looked up in the installed metadata)
    # takes longer to import than the compiled module itself, a cost every live action paid.
    import _duckdb as duckdb
except ImportError:  # a DuckDB whose compiled module is not importable on its own
    import duckdb


def connect(database: str = ":memory:", *, read_only: bool = False) -> Connection:
    """A connection to ``database`` (a file, or ``":memory:"``: a new private database), with
    DuckDB's progress bar off.

    A database in memory or a file opened read-only is attached to this process's one DuckDB
    instance (:func:`_instance`) and made its connection's current database. Opening a DuckDB
    database costs about 20-30 ms of CPU (its catalog, an in-memory one too); attaching one
    to an instance already open costs under 1 ms, so a process that opens many ledgers
    (``serve``, ``table``, the tests) pays the first cost once. A file opened to be written
    keeps a DuckDB instance of its own, as before: its temporary folder (``<file>.tmp``) and
    its memory limit (:mod:`ledger.store.spill`) are an instance's settings. A file open in
    this process in one mode is shared with a second connection in the same mode, as DuckDB
    shares it between connections; in the other mode it is refused as DuckDB refuses it.
    :meth:`Connection.close` detaches the database (the file lock released) once its last
    connection closes.

    Raises:
        duckdb.Error: as ``duckdb.connect`` (a missing folder, a file another process holds,
            not a DuckDB file, the file open in this process in another mode).
    """
    if _PRIVATE or (not read_only and database != ":memory:"):
        key = None if _PRIVATE else _claim(database, read_only)
        try:
            con = duckdb.connect(database, read_only=read_only)
        except BaseException:
            _unclaim(key)
            raise
        try:
            con.execute("SET enable_progress_bar = false")
            if read_only or database == ":memory:":
                folder = _spill_folder().replace("'", "''")
                con.execute(f"SET temp_directory = '{folder}'")
        except BaseException:
            con.close()
            _unclaim(key)
            raise
        return Connection(con, None, key)
    instance = _instance()
    if database == ":memory:":
        alias = _new_alias("m")
        instance.execute(f'ATTACH \':memory:\' AS "{alias}"')
        _ATTACHED[alias] = [None, 0]
    else:
        alias = _attach_file(instance, database, read_only=True, prefix="l")
    _ATTACHED[alias][1] += 1
    try:
        cursor = instance.cursor()
        try:
            cursor.execute(f'USE "{alias}"')
            cursor.execute("SET enable_progress_bar = false")
        except BaseException:
            cursor.close()
            raise
    except BaseException:
        _release(alias)
        raise
    return Connection(cursor, alias)


class Connection:
    """A DuckDB connection whose current database is one attached for it (:func:`connect`):
    every method is the cursor's, but :meth:`close`, which also detaches that database (and
    any :meth:`attach` made through it) when no other connection uses it."""

    __slots__ = ("_cursor", "_aliases", "_pid", "_key")

    def __init__(self, cursor: duckdb.DuckDBPyConnection, alias: str | None,
                 key: str | None = None) -> None:
        self._cursor = cursor
        self._aliases = [alias]  # None: an instance of its own, closed whole
        self._pid = os.getpid()
        self._key = key  # the real path of a file written through an instance of its own

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._cursor, name)

    def execute(self, *args: object) -> duckdb.DuckDBPyConnection:
        return self._cursor.execute(*args)

    def attach(self, database: str, *, prefix: str, options: str = "") -> str:
        """``database`` (a file or ``":memory:"``) attached with DuckDB's ``options`` (as
        ``"(READ_ONLY)"``) under a new name starting with ``prefix``, detached when this
        connection closes; returns the name. On the process's instance a file is attached
        read-only (``options`` ``"(READ_ONLY)"``) once, shared as :func:`connect` shares it.

        Raises:
            duckdb.Error: as ``ATTACH``; the file open in this process to be written.
        """
        shared = self._aliases and self._aliases[0] is not None
        if shared and database != ":memory:":
            if options.strip().upper() != "(READ_ONLY)":
                raise ValueError("a file is attached read-only")
            alias = _attach_file(_instance(), database, read_only=True, prefix=prefix)
            _ATTACHED[alias][1] += 1
            self._aliases.append(alias)
            return alias
        alias = _new_alias(prefix)
        self._cursor.execute(f'ATTACH ? AS "{alias}" {options}', [database])
        if shared:  # on the process's instance: detached on close
            _ATTACHED[alias] = [None, 1]
            self._aliases.append(alias)
        return alias

    def close(self) -> None:
        """Close the connection and detach what it attached, its database once no other
        connection of this process uses it. Idempotent."""
        if not self._aliases:
            return
        aliases, self._aliases = self._aliases, []
        try:
            self._cursor.close()
        finally:
            if self._pid == os.getpid():
                if aliases[0] is None:
                    _unclaim(self._key)
                else:
                    for alias in reversed(aliases):
                        _release(alias)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit, DuckDB may be gone
            pass


@contextmanager
def private() -> Iterator[None]:
    """Every :func:`connect` in the block opens a DuckDB instance of its own, closed with it:
    for a connection whose settings must not outlive it (``sql`` switches file access off,
    which DuckDB never lets be switched on again; a file system registered)."""
    _PRIVATE.append(True)
    try:
        yield
    finally:
        _PRIVATE.pop()


_PRIVATE: list[bool] = []
_INSTANCE: list[tuple[int, duckdb.DuckDBPyConnection]] = []
_ATTACHED: dict[str, list] = {}  # name → [real path or None, connections]
_BY_FILE: dict[str, str] = {}  # real path → name, a file attached read-only
_WRITTEN: dict[str, int] = {}  # real path → connections writing it (instances of their own)
_ALIASES = itertools.count()
_OTHER_MODE = ("Connection Error: Can't open a connection to same database file with a "
               "different configuration than existing connections")
#: the instance's settings a connection may change (a capped read in a test, say), put back
#: when its last database is detached
_INSTANCE_SETTINGS = ("memory_limit", "threads")


def _claim(database: str, read_only: bool) -> str | None:
    """The real path of ``database``, counted as written by one more connection.

    Raises:
        duckdb.ConnectionException: the file is attached read-only in this process.
    """
    if read_only or database == ":memory:":
        return None
    _after_fork()
    key = os.path.realpath(database)
    if key in _BY_FILE:
        raise duckdb.ConnectionException(_OTHER_MODE)
    _WRITTEN[key] = _WRITTEN.get(key, 0) + 1
    return key


def _unclaim(key: str | None) -> None:
    if key is None or key not in _WRITTEN:
        return
    _WRITTEN[key] -= 1
    if not _WRITTEN[key]:
        del _WRITTEN[key]


def _after_fork() -> None:
    """The bookkeeping cleared in a forked child: what its parent has open is not its own."""
    if _OWNER and _OWNER[0] == os.getpid():
        return
    _ATTACHED.clear()
    _BY_FILE.clear()
    _WRITTEN.clear()
    _OWNER[:] = [os.getpid()]


_OWNER: list[int] = []


def _attach_file(instance: duckdb.DuckDBPyConnection, database: str, *, read_only: bool,
                 prefix: str) -> str:
    """The name under which the file ``database`` is attached read-only to ``instance``:
    attached now unless it already is (its count of connections left to the caller).

    Raises:
        duckdb.ConnectionException: the file is open in this process to be written;
        duckdb.Error: as ``ATTACH``.
    """
    key = os.path.realpath(database)
    if key in _WRITTEN:
        raise duckdb.ConnectionException(_OTHER_MODE)
    alias = _BY_FILE.get(key)
    if alias is None:
        alias = _new_alias(prefix)
        instance.execute(f'ATTACH ? AS "{alias}" (READ_ONLY)', [database])
        _ATTACHED[alias] = [key, 0]
        _BY_FILE[key] = alias
    return alias


def _instance() -> duckdb.DuckDBPyConnection:
    """This process's DuckDB instance, in memory (a forked child opens its own)."""
    _after_fork()
    if _INSTANCE and _INSTANCE[0][0] == os.getpid():
        return _INSTANCE[0][1]
    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")
    folder = _spill_folder().replace("'", "''")
    con.execute(f"SET temp_directory = '{folder}'")
    _INSTANCE[:] = [(os.getpid(), con)]
    return con


def _new_alias(prefix: str) -> str:
    return f"{prefix}{next(_ALIASES)}"


def _release(alias: str) -> None:
    entry = _ATTACHED.get(alias)
    if entry is None:
        return
    entry[1] -= 1
    if entry[1] > 0:
        return
    del _ATTACHED[alias]
    if entry[0] is not None:
        _BY_FILE.pop(entry[0], None)
    instance = _INSTANCE[0][1]
    instance.execute("USE memory")
    instance.execute(f'DETACH "{alias}"')
    if not _ATTACHED:
        for name in _INSTANCE_SETTINGS:
            instance.execute(f"RESET {name}")


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
