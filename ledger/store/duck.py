"""DuckDB connections as handledger opens them.

DuckDB draws a progress bar on standard output while a query runs longer than two seconds,
which would put a line of bar characters at the head of what a command writes there (an
``export`` to standard output redirected to a file meant for re-import). Every connection the
store and the replay open goes through :func:`connect`, which turns it off; the commands draw
their own progress on standard error.

A query that outgrows DuckDB's memory limit spills to DuckDB's temporary folder, by default
``.tmp`` in the working directory for a database in memory and ``<file>.tmp`` beside a file.
A read never creates a file where the user works (docs/COMMANDS.md "reads never write"), so a
connection in memory or to a file opened read-only spills instead into a folder of its own
in the system's temporary directory (:func:`tempfile.gettempdir`), made by DuckDB only when
it spills and removed when this process ends. A large write that may spill (a capped
import, :mod:`ledger.store.spill`) spills to ``<file>.tmp`` (:func:`spill_beside`).

Every database a process opens is attached to one DuckDB instance of the process
(:func:`connect`), and detached when its last connection closes.

DuckDB runs a query on as many threads as the machine has CPUs, unless the process says how
many (:func:`ledger.store.threads.use_threads`; ``handledger --threads N``), which every
:func:`connect` makes the instance follow: on a machine whose CPUs other work
already keeps busy (the test suite's worker processes, several commands at once), one thread
saves the hand-over between them that a small query costs more than it gains.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ledger.store.threads import wanted

try:
    # DuckDB's compiled module, which the ``duckdb`` package re-exports (the same connect, the
    # same connection and error classes): the store needs nothing more, and the package's own
    # Python layer (relations, expressions, its version looked up in the installed metadata)
    # takes longer to import than the compiled module itself, a cost every live action paid.
    import _duckdb as duckdb
except ImportError:  # a DuckDB whose compiled module is not importable on its own
    import duckdb


def connect(database: str = ":memory:", *, read_only: bool = False) -> Connection:
    """A connection to ``database`` (a file, or ``":memory:"``: a new private database),
    attached to this process's one DuckDB instance (:func:`_instance`) and made its
    connection's current database, with DuckDB's progress bar off.

    Opening a DuckDB database costs about 20-30 ms of CPU (its catalog, an in-memory one too);
    attaching one to an instance already open costs under 1 ms, so a process that opens many
    ledgers (``serve``, ``table``, the tests) pays the first cost once. A file opened twice in
    this process in the same mode is attached once and shared, as DuckDB shares a file between
    connections; in the other mode it is refused as DuckDB refuses it.
    :meth:`Connection.close` detaches the database once its last connection closes: DuckDB
    checkpoints it (its ``.wal`` folded into the file) and releases the file lock.

    Raises:
        duckdb.Error: as ``duckdb.connect`` (a missing folder, a file another process holds,
            not a DuckDB file, the file open in this process in the other mode).
    """
    if _PRIVATE:
        con = duckdb.connect(database, read_only=read_only, config=_config())
        try:
            con.execute("SET enable_progress_bar = false")
            if read_only or database == ":memory:":
                folder = _spill_folder().replace("'", "''")
                con.execute(f"SET temp_directory = '{folder}'")
        except BaseException:
            con.close()
            raise
        return Connection(con, None)
    with _LOCK:  # the bookkeeping and the instance's own connection: one thread at a time
        instance = _instance()
        _follow_threads(instance)
        if database == ":memory:":
            alias = _new_alias("m")
            instance.execute(f'ATTACH \':memory:\' AS "{alias}"')
            _ATTACHED[alias] = [None, 0, False]
        else:
            alias = _attach_file(instance, database, read_only=read_only, prefix="l")
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

    __slots__ = ("_cursor", "_aliases", "_pid")

    def __init__(self, cursor: duckdb.DuckDBPyConnection, alias: str | None) -> None:
        self._cursor = cursor
        self._aliases = [alias]  # None: an instance of its own (:func:`private`), closed whole
        self._pid = os.getpid()

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._cursor, name)

    def execute(self, *args: object) -> duckdb.DuckDBPyConnection:
        return self._cursor.execute(*args)

    @property
    def shared(self) -> bool:
        """Whether the connection is on the process's instance (not :func:`private`)."""
        return bool(self._aliases) and self._aliases[0] is not None

    def attach(self, database: str, *, prefix: str, options: str = "") -> str:
        """``database`` (a file or ``":memory:"``) attached with DuckDB's ``options`` (as
        ``"(READ_ONLY)"``) under a new name starting with ``prefix``, detached when this
        connection closes; returns the name. On the process's instance a file is attached
        read-only (``options`` ``"(READ_ONLY)"``) and shared as :func:`connect` shares it.

        Raises:
            duckdb.Error: as ``ATTACH``; the file open in this process to be written.
        """
        if self.shared and database != ":memory:":
            if options.strip().upper() != "(READ_ONLY)":
                raise ValueError("a file is attached read-only")
            with _LOCK:
                alias = _attach_file(_instance(), database, read_only=True, prefix=prefix)
                _ATTACHED[alias][1] += 1
                self._aliases.append(alias)
            return alias
        alias = _new_alias(prefix)
        self._cursor.execute(f'ATTACH ? AS "{alias}" {options}', [database])
        if self.shared:  # on the process's instance: detached on close
            with _LOCK:
                _ATTACHED[alias] = [None, 1, False]
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
            if self._pid == os.getpid() and aliases[0] is not None:
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


def ending_with_process() -> None:
    """Said by a process that ends once the command it runs is done (a one-shot live action:
    :func:`cli.context.one_action` in a process of its own): when its last ledger is detached,
    the instance's settings are left as they are instead of being put back for a next ledger
    (six statements, about 1 ms of CPU, for an instance the process's end drops). The
    detach itself (DuckDB's checkpoint, the file lock let go) is done as always; a ledger
    opened after it gets what :func:`connect` sets (its threads, the progress bar off), and no
    live action changes the others (a capped write's memory limit, a test's checkpoints)."""
    _ENDING[0] = os.getpid()


def spill_beside(con: Connection, path: str) -> None:
    """DuckDB's temporary folder made ``<path>.tmp`` beside the ledger ``path`` that ``con``
    writes, as a file's own DuckDB instance has it (a large write that spills, a capped
    import: :mod:`ledger.store.spill`), where DuckDB still lets it be moved (nothing spilled
    to the process's folder yet; otherwise it spills there). Undone by :func:`spill_apart`.
    Both are called outside a transaction (:meth:`ledger.store.store.Ledger.transaction`)."""
    if con.shared:
        _move_spill(con, f"{path}.tmp")


def spill_apart(con: Connection) -> None:
    """DuckDB's temporary folder back in the system's temporary directory after
    :func:`spill_beside` (where DuckDB lets it move: nothing spilled beside the ledger)."""
    if con.shared:
        _move_spill(con, _spill_folder())


def _move_spill(con: Connection, folder: str) -> None:
    """Never inside a transaction: DuckDB's refusal aborts it. Set without asking first what
    it is: once the folder was used DuckDB refuses to set any, the one it has too, and the
    refusal leaves it where it is, as asking would have."""
    try:
        con.execute(f"SET temp_directory = '{folder.replace(chr(39), chr(39) * 2)}'")
    except duckdb.NotImplementedException:  # "Cannot switch … after … has been used"
        pass


_PRIVATE: list[bool] = []
_ENDING: list[int | None] = [None]  # the pid of a process that ends with its command
_APPLIED: list[int | None] = [None]  # the instance's threads as set (None: DuckDB's default)
_LOCK = threading.RLock()
_INSTANCE: list[tuple[int, duckdb.DuckDBPyConnection]] = []
_ATTACHED: dict[str, list] = {}  # name → [real path or None, connections, read-only]
_BY_FILE: dict[str, str] = {}  # real path → name
_ALIASES = itertools.count()
_OTHER_MODE = ("Connection Error: Can't open a connection to same database file with a "
               "different configuration than existing connections")
#: the instance's settings a connection may change (a capped write, one on one thread, a
#: test's query made to spill or its checkpoints put off), put back when its last database is
#: detached: what one ledger's connection set never outlives it
_INSTANCE_SETTINGS = ("RESET memory_limit", "RESET threads", "RESET checkpoint_threshold",
                      "RESET write_buffer_row_group_count",
                      "PRAGMA enable_checkpoint_on_shutdown")


def _attach_file(instance: duckdb.DuckDBPyConnection, database: str, *, read_only: bool,
                 prefix: str) -> str:
    """The name under which the file ``database`` is attached to ``instance`` in the mode
    ``read_only`` says: attached now unless it already is (its count of connections left to
    the caller).

    Raises:
        duckdb.ConnectionException: the file is attached in this process in the other mode;
        duckdb.Error: as ``ATTACH``.
    """
    key = os.path.realpath(database)
    alias = _BY_FILE.get(key)
    if alias is not None and _ATTACHED[alias][2] != read_only:
        raise duckdb.ConnectionException(_OTHER_MODE)
    if alias is None:
        alias = _new_alias(prefix)
        mode = " (READ_ONLY)" if read_only else ""
        instance.execute(f'ATTACH ? AS "{alias}"{mode}', [database])
        _ATTACHED[alias] = [key, 0, read_only]
        _BY_FILE[key] = alias
    return alias


def _instance() -> duckdb.DuckDBPyConnection:
    """This process's DuckDB instance, in memory (a forked child opens its own, and forgets
    what its parent had attached)."""
    if _INSTANCE and _INSTANCE[0][0] == os.getpid():
        return _INSTANCE[0][1]
    _ATTACHED.clear()
    _BY_FILE.clear()
    con = duckdb.connect(":memory:", config=_config())
    con.execute("SET enable_progress_bar = false")
    folder = _spill_folder().replace("'", "''")
    con.execute(f"SET temp_directory = '{folder}'")
    _INSTANCE[:] = [(os.getpid(), con)]
    _APPLIED[0] = wanted()
    return con


def _follow_threads(instance: duckdb.DuckDBPyConnection) -> None:
    """The instance's threads made those the process wants (:func:`ledger.store.threads.wanted`)
    when they differ."""
    threads = wanted()
    if _APPLIED[0] != threads:
        instance.execute(f"SET threads = {threads}" if threads else "RESET threads")
        _APPLIED[0] = threads


def _config() -> dict[str, object]:
    threads = wanted()
    return {"threads": threads} if threads else {}


def _new_alias(prefix: str) -> str:
    return f"{prefix}{next(_ALIASES)}"


def _release(alias: str) -> None:
    with _LOCK:
        _detach(alias)


def _detach(alias: str) -> None:
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
    if not _ATTACHED and _ENDING[0] != os.getpid():  # as a new instance: its settings, its
        # spill folder unused (not for a process that ends with its command: ending_with_process)
        try:
            for statement in _INSTANCE_SETTINGS:
                instance.execute(statement)
            _APPLIED[0] = None  # threads reset: the next connect sets those wanted again
            folder = _spill_folder().replace("'", "''")
            instance.execute(f"SET temp_directory = '{folder}'")
        except duckdb.Error:  # it spilled (beside a ledger, say): the next open makes another
            _INSTANCE.clear()
            instance.close()


#: The names of the tables of a connection's current database and schema, read from the
#: catalog alone (:func:`present_tables`).
TABLES_HERE = ("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
               " AND schema_name = current_schema()")


def present_tables(con: Connection | duckdb.DuckDBPyConnection) -> set[str]:
    """The names of the tables of ``con``'s current database and schema, where its queries
    find them (an overlay's tables in memory, not the file's beneath:
    :meth:`ledger.store.store.Ledger.overlay`; never another ledger the process has attached).
    Listing only those costs a quarter of listing the tables of every database DuckDB holds
    (its own catalogs among them: about 7 ms of CPU a call), and a query of a missing table
    fails only after 10-15 ms (DuckDB looks through every catalog for a name to suggest). It
    reads the catalog, never a table that may be missing, so it fails nothing inside a
    transaction.

    Raises:
        duckdb.Error: the database cannot be read (the caller translates it).
    """
    return {r[0] for r in con.execute(TABLES_HERE).fetchall()}


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
