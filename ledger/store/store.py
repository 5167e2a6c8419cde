"""The append-only, hash-chained DuckDB event store.

Table ``events``: one row per event, global ``position`` 1, 2, … and ``seq`` 1, 2, … inside its
``stream`` (a hand id, or ``session:<name>``), the canonical JSON ``payload``, and the hash chain
(:mod:`ledger.store.chain`). Table ``meta`` holds the store version and the chain head (last
position and hash), which lets :meth:`Ledger.verify` see deleted or extra rows at the end.

The store version (``meta``'s ``store_version``) names the ``events`` table's shape.
Version 1 declared ``position`` a primary key and ``(stream, seq)`` unique; version 2, what
a new ledger gets, declares neither: DuckDB keeps such keys as ART indexes, held in memory
and, inside a transaction, growing with every row appended until the commit (about 0.8 MB a
thousand hands of an import; the insert about 0.9 µs a row dearer, bench/PROFILE.md). What
they guaranteed is kept by the one writer instead: a position is the recorded head + 1 (the
``meta`` row of the head is updated by every append, so two transactions appending at once
conflict there), every append checks first that the head is the last stored row, its
position and hash (``Ledger._append_head``: a head edited or moved by hand is refused, never
appended onto), and each stream's stored tail (:func:`check_tail`,
:meth:`Ledger.append_columns`), and :meth:`Ledger.verify` names a repeated position or
``(stream, seq)``. Both versions are read and written alike; nothing converts one to the
other.

Every DuckDB error is translated into the :class:`ledger.model.errors.LedgerError` family here (a
held file lock becomes :class:`LedgerBusy`, a constraint violation :class:`DuplicateEvent`
naming the position or stream and seq a row already holds). Modules
that keep derived tables use :attr:`Ledger.connection` inside :meth:`Ledger.transaction`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Literal

from ledger.model.batch import Batch
from ledger.model.errors import (
    ChainBroken,
    DuplicateEvent,
    LedgerBusy,
    LedgerCorrupt,
    LedgerError,
    LedgerReadOnly,
    MalformedEvent,
    MalformedInput,
    NotFound,
    no_hand,
    no_ledger,
)
from ledger.model.events import parse_stored
from ledger.model.gcpause import gc_paused
from ledger.store import cutshort, duck, landing, rawfile, shape, spill
from ledger.store.appended import Appended
from ledger.store.duck import duckdb  # the compiled module alone: duck.py
from ledger.store.holders import holder_words
from ledger.store.kept import Kept, Reads
from ledger.store.ledgerfile import check_ledger_file
from ledger.store.making import wait_until_made
from ledger.store.rolledback import check_not_rolled_back
from ledger.store.waiting import waiting

if TYPE_CHECKING:
    from ledger.store.chain import Event, PreparedBatch, Row, VerifyReport
    from ledger.store.columns import PreparedColumns

__all__ = ["Batch", "Event", "Ledger", "StoredEvent", "VerifyReport", "STORE_VERSION"]

#: The chain's names given here too, :mod:`ledger.store.chain` imported when one is first asked
#: for: a read (``state``, a one-shot process of its own) hashes and links nothing, so it does
#: not load the chain, the columns' preparation or the canonical JSON.
_FROM_CHAIN = frozenset({"Event", "VerifyReport", "GENESIS", "SESSION_PREFIX"})


def __getattr__(name: str) -> Any:
    if name in _FROM_CHAIN:
        from ledger.store import chain

        return getattr(chain, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The shape of a new ledger's ``events`` table (module doc): 1 with the keys, 2 without.
STORE_VERSION = 2
COLUMNS = (
    "position, stream, hand_id, session, seq, type, schema_version, payload, recorded_at, "
    "source_key, prev_hash, hash"
)
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        position BIGINT NOT NULL, stream VARCHAR NOT NULL, hand_id VARCHAR, session VARCHAR,
        seq INTEGER NOT NULL, type VARCHAR, schema_version INTEGER, payload JSON,
        recorded_at TIMESTAMP, source_key VARCHAR, prev_hash VARCHAR, hash VARCHAR)""",
    "CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
)
#: What an open checks of the ledger's own tables (:mod:`ledger.store.shape`), in one query:
#: the ``events`` columns (its description but the last three), the ``meta`` rows and the
#: file's block size (the last three columns: for the size check every open makes,
#: :func:`ledger.store.cutshort.check_sound`), no row of ``events`` read. One query in place
#: of three: each costs about 1 ms of CPU, and every command opens the ledger. The block size
#: is joined, not a subquery of the select list: DuckDB plans that one 4-5 ms longer (6-9 ms
#: of CPU against 3-4), and gives the same rows (NULL when the pragma has no row).
_OPENED = ("SELECT e.*, m.key, m.value, d.block_size FROM meta m"
           " LEFT JOIN (FROM events WHERE false) e ON true"
           " LEFT JOIN (SELECT block_size FROM pragma_database_size()"
           " WHERE database_name = current_database()) d ON true")
_PAGE = 10_000  # positions per query when streaming (Ledger._pages)
#: DuckDB's memory while rows are walked in position order (Ledger._pages): a page takes a
#: few MB; with this cap a walk of 2.35 million rows stayed at about 180 MB resident.
_WALK_MEMORY = "64MB"
#: The ledger's last positions where a stream's rows are looked for first (Ledger.read_recent,
#: Ledger._tails): a hand recorded live has its rows there, and a query bounded by position
#: reads only the file's last row groups, where one by stream alone scans the stream column of
#: every row group (its min/max rarely rule a hand id out).
_RECENT = 100_000
_EVERY = 2 ** 62  # a position bound that every row is below (Ledger._tails)
_FLUSH = 100_000  # rows per appender flush / per bulk INSERT
_BULK = 50_000  # from this many rows on, insert columns (numpy arrays) instead of the appender
# (below, importing numpy, about 0.1 s, costs more than the appender loses)
_INT_COLUMNS = frozenset({0, 4, 6})  # position, seq, schema_version
# What DuckDB says of a file that is not a database, cut short or damaged (a bad block checksum)
_CORRUPT_TEXTS = ("not a valid DuckDB database file", "Could not read enough bytes",
                  "Corrupt database file", "checksum")
_BROKEN_STORAGE = (duckdb.InternalException, duckdb.FatalException,
                   duckdb.SerializationException)


@dataclass(frozen=True)
class StoredEvent:
    """One stored row. ``payload`` is the canonical event JSON; ``recorded_at`` naive UTC."""

    position: int
    stream: str
    hand_id: str | None
    session: str | None
    seq: int
    type: str
    schema_version: int
    payload: str
    recorded_at: datetime
    source_key: str | None
    prev_hash: str
    hash: str

    @property
    def event(self) -> Any:
        """The typed event (:func:`ledger.model.events.parse_stored`, which builds only the
        models of the types met); raises ``MalformedEvent``."""
        return parse_stored(self.type, self.payload)


def _insert(con: duckdb.DuckDBPyConnection, rows: list[Row]) -> None:
    """Insert ``rows`` (the ``events`` column order) into ``events`` inside the caller's
    transaction, ``_FLUSH`` rows at a time. Many rows go in as columns (an Arrow stream read
    by one ``INSERT … SELECT``: about 3x faster than the appender, which converts every
    value through Python); a few through the appender (no numpy or pyarrow import for a
    small append).

    Raises:
        duckdb.Error: a constraint or conversion failure (the caller translates it).
    """
    if len(rows) < _BULK:
        appender = con.appender("events")
        for start in range(0, len(rows), _FLUSH):
            appender.append_rows(rows[start : start + _FLUSH])
            appender.flush()
        return
    import numpy as np

    from ledger.store.arrow import insert_arrow, int_column, text_column, timestamp_column

    names = [c.strip() for c in COLUMNS.split(",")]

    def arrays(chunk: list[Row]) -> dict[str, Any]:
        columns = zip(*chunk, strict=True)
        return {
            name: (int_column(col) if i in _INT_COLUMNS
                   else timestamp_column(_timestamps(np, col)) if name == "recorded_at"
                   else text_column(col, few=name == "type"))
            for i, (name, col) in enumerate(zip(names, columns, strict=True))
        }

    for start in range(0, len(rows), _FLUSH):  # one chunk's columns alive at a time
        insert_arrow(con, "events", COLUMNS, arrays(rows[start : start + _FLUSH]))


def _timestamps(np: Any, values: tuple[datetime, ...]) -> Any:
    """``values`` (naive datetimes) as a ``datetime64[us]`` array; an append stamps every row
    with the same moment, converted once (converting each is most of the array building)."""
    if values.count(values[0]) == len(values):
        return np.full(len(values), np.datetime64(values[0], "us"))
    return np.array(values, dtype="datetime64[us]")


class Ledger:
    """An append-only event ledger in one DuckDB file (or in memory).

    Not thread-safe: use one ``Ledger`` per thread. DuckDB lets one process write a file; a
    second process opening it gets :class:`LedgerBusy`.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False,
                 wait: bool = True, sound: bool = True) -> None:
        """Open (and, unless ``read_only``, create) the ledger at ``path`` (``":memory:"`` for a
        private in-memory ledger). When another process holds the file, the open waits as
        the process's policy says (:mod:`ledger.store.waiting`; ``wait`` False: not at all).
        The file is checked first, unless not ``sound``, as cheaply as every read and live
        write must be (:func:`ledger.store.cutshort.check_sound`: it does not end inside a
        block; a write would have DuckDB cut bytes written past its end away, unasked); a
        block failing its checksum is met by the read that reads it.

        Raises:
            LedgerBusy: another process holds the file (still, after the wait), or this one
                with another mode.
            NotFound: ``read_only`` and the file does not exist, nor is another process
                making it (one that is: waited for as for a writer, :mod:`ledger.store.making`).
            LedgerCorrupt: not a DuckDB file, cut short or damaged, or not a handledger
                ledger.
            LedgerReadOnly: not ``read_only`` and the file has no write permission bit (root
                too, whom the system would let write it) or cannot be written here.
            LedgerError: a file named as data DuckDB reads as a table (``game.csv``) that is
                no DuckDB file, or a new one to make so named (nothing created:
                :func:`ledger.store.ledgerfile.check_ledger_file`); a newer store version, or
                any other open failure.
        """
        self.path = os.fspath(path)
        self.read_only = read_only
        self._depth = 0
        self._uncapped: str | None = None  # the memory limit before a capped transaction
        self._appended = Appended()  # the open transaction's appended streams (_tails)
        #: ``meta`` as read when opened read-only (nothing writes it while this process
        #: holds the file so: :meth:`_head` reads it from here); None otherwise.
        self._opened_meta: dict[str, str] | None = None
        self._block_size: int | None = None  # the file's, as the open read it (_opened)
        self._source: str | None = None  # the file's database name beneath an overlay
        self._kept = Kept()  # small reads asked again, while open read-only (ledger.store.kept)
        self._at_open: tuple[tuple[int, str] | None] | None = None  # the head the open read
        _regular_or_new(self.path)
        check_ledger_file(self.path, creating=not read_only)
        if not read_only:
            not_write_protected(self.path)
            _folder_to_create_in(self.path)
        if not read_only and self.path != ":memory:" and not os.path.lexists(self.path):
            _create(self.path)
        elif read_only and self.path != ":memory:" and not os.path.exists(self.path):
            wait_until_made(self.path, wait=wait)  # one another process is making, or none
        self._con = waiting(self.path, lambda: self._connect(read_only), wait=wait)
        try:
            opened = self._opened()
            if opened is not None:
                meta, columns = opened
                shape.check_meta(self.path, meta)  # hand-edited tables: one line each
                shape.check_columns(self.path, columns)
            else:  # a new ledger, a table lost or edited: step by step, each in its words
                meta = self._new_or_edited(read_only)
            if read_only:
                self._opened_meta = meta
                self._kept.start()
            self._at_open = (_head_of(meta),)
            version = meta["store_version"]
            if not version.isdigit() or int(version) > STORE_VERSION:
                raise LedgerError(
                    f"ledger {self.path} has store version {version}; "
                    f"this handledger reads versions up to {STORE_VERSION}"
                )
            if sound:  # a write too: never over bytes verify calls corrupt (DuckDB's next
                self._sound()  # checkpoint would cut them away, a repair none asked for)
        except BaseException:  # a refusal, Ctrl-C: the file released before it is raised
            self._con.close()
            raise

    def _opened(self) -> tuple[dict[str, str], list[tuple[str, str]]] | None:
        """The ``meta`` rows and the ``events`` columns (:data:`_OPENED`), or None when that
        query cannot be bound: a table missing, or ``meta`` without its columns (a new
        ledger, or one edited by hand, which :meth:`_new_or_edited` reads step by step).

        Raises:
            LedgerError: any other DuckDB error, translated.
        """
        try:
            cursor = self._con.execute(_OPENED)
            columns = [(d[0], str(d[1])) for d in cursor.description][:-3]
            rows = cursor.fetchall()
        except (duckdb.CatalogException, duckdb.BinderException):
            return None
        except duckdb.Error as e:
            raise self._translate(e) from e
        if rows:
            self._block_size = int(rows[0][-1])
        return {row[-3]: row[-2] for row in rows}, columns

    def _new_or_edited(self, read_only: bool) -> dict[str, str]:
        """The schema of a new ledger made (not ``read_only``), then the tables checked one
        by one (:mod:`ledger.store.shape`); returns the ``meta`` rows.

        Raises:
            LedgerCorrupt: a table missing or edited; LedgerError: a DuckDB error.
        """
        tables = self._tables()
        if not read_only and not tables & {"events", "meta"}:  # a new ledger; never a
            with self.transaction() as con:  # lost table or head made anew over old rows
                _new_schema(con)
            tables = self._tables()
        if not {"events", "meta"} <= tables:
            raise LedgerCorrupt(f"ledger {self.path} is not a handledger ledger")
        meta = self._meta()
        shape.check_meta(self.path, meta)  # hand-edited tables: one line each
        try:
            shape.check_events(self.path, self._con)
        except duckdb.Error as e:
            raise self._translate(e) from e
        return meta

    def _sound(self, database: str | None = None) -> None:
        """The file checked as every open checks it (:func:`cutshort.check_sound`), with the
        block size the open read when it has (then at the cost of one ``stat``)."""
        try:
            cutshort.check_sound(self.path, self._con, database,
                                 block_size=self._block_size if database is None else None)
        except duckdb.Error as e:
            raise self._translate(e) from e

    def _connect(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        try:
            return duck.connect(self.path, read_only=read_only)
        except duckdb.Error as e:
            raise self._translate(e) from e

    @classmethod
    def memory(cls) -> Ledger:
        """A new, private in-memory ledger (for tests)."""
        return cls(":memory:")

    @classmethod
    def overlay(cls, path: str | os.PathLike[str], *, wait: bool = True,
                sound: bool = True) -> Ledger:
        """The ledger at ``path`` opened read-only, with its derived tables copied into memory
        where they can be caught up without writing the file (a read-only file, or one
        another process has open). Its events cannot be appended to. The file is checked first,
        unless not ``sound``, as a read-only open checks it.

        Raises:
            NotFound, LedgerBusy, LedgerError: as for opening it read-only (and waiting so).
        """
        self = cls.__new__(cls)
        self.path, self.read_only, self._depth = os.fspath(path), True, 0
        self._uncapped = None
        self._appended = Appended()
        self._opened_meta = None
        self._block_size = None
        self._source = None
        self._kept = Kept()
        self._at_open = None
        _regular_or_new(self.path)
        check_ledger_file(self.path, creating=False)
        if not os.path.exists(self.path):
            wait_until_made(self.path, wait=wait)  # one another process is making, or none
        self._con = duck.connect(":memory:")
        try:
            # the tables in memory are compressed at each checkpoint (a million hands' derived
            # tables: about 200 MB instead of 1 GB; replay.tables.write_tables checkpoints)
            overlay = self._con.attach(":memory:", prefix="overlay", options="(COMPRESS)")
            self._con.execute(f'USE "{overlay}"')
            source = waiting(self.path, self._attach, wait=wait)
            self._source = source
            self._copy_tables(source, sound=sound)
        except duckdb.Error as e:
            self._con.close()
            raise self._translate(e) from e
        except BaseException:
            self._con.close()
            raise
        return self

    def overlaid(self) -> None:
        """This ledger, open read-only, made an :meth:`overlay` in place: its derived tables
        copied into memory on the same connection (the file stays attached read-only, as
        checked when opened), so that a read that finds them stale catches them up without
        opening the file again (a DuckDB connection costs about 30 ms of CPU). Closed on any
        failure.

        Raises:
            LedgerError: not open read-only, or a database failure (translated).
        """
        if not self.read_only or self._opened_meta is None:
            raise LedgerError(f"ledger {self.path} is not open read-only")
        self._kept.stop()  # its tables in memory are written from now on
        try:
            (source,), = self._query("SELECT current_database()")
            # READ_WRITE: attached to a read-only connection, it would take that mode
            overlay = self._con.attach(":memory:", prefix="overlay",
                                       options="(COMPRESS, READ_WRITE)")
            self._con.execute(f'USE "{overlay}"')
            self._copy_tables(source, sound=False)  # checked when opened
        except duckdb.Error as e:
            self._con.close()
            raise self._translate(e) from e
        except BaseException:
            self._con.close()
            raise
        self._source = source
        self._opened_meta = None  # as an overlay's: read through its views
        self._block_size = None

    def _copy_tables(self, source: str, *, sound: bool) -> None:
        """The overlay's tables made in memory from the attached file ``source`` (a database
        name): its derived tables copied, ``events`` and ``meta`` views over its own, its
        derived views made again over the copies.

        Raises:
            LedgerCorrupt: no ``events`` or ``meta`` table; duckdb.Error: the caller
                translates it.
        """
        names = [row[0] for row in self._query(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = ?", [source])]
        if not {"events", "meta"} <= set(names):
            raise LedgerCorrupt(f"ledger {self.path} is not a handledger ledger")
        if sound:
            self._sound(source)
        quoted = source.replace('"', '""')
        for name in names:
            kind = "VIEW" if name in ("events", "meta") else "TABLE"
            self._con.execute(f'CREATE {kind} "{name}" AS SELECT * FROM "{quoted}"."{name}"')
        for (sql,) in self._query("SELECT sql FROM duckdb_views() WHERE database_name = ?"
                                  " AND NOT internal", [source]):
            self._con.execute(sql)  # the derived views, over the tables in memory

    def _attach(self) -> str:
        try:
            return self._con.attach(self.path, prefix="src", options="(READ_ONLY)")
        except duckdb.Error as e:
            raise self._translate(e) from e

    @property
    def source(self) -> str:
        """The DuckDB name of the ledger's file on :attr:`connection`: under an overlay
        (:meth:`overlay`, :meth:`overlaid`), the file attached beneath the tables in memory;
        otherwise the connection's current database."""
        if self._source is not None:
            return self._source
        (name,), = self._query("SELECT current_database()")
        return str(name)

    def reads(self) -> Reads:
        """:attr:`connection` for a reader that only asks it with ``execute`` and fetches the
        rows (:func:`ledger.audit.catchup.moved`): while the ledger is open read-only on its
        file, the small reads it asks again are answered as the first time
        (:mod:`ledger.store.kept`). DuckDB's errors are raised as they are."""
        return Reads(self._con, self._kept)

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The DuckDB connection, for modules that keep derived tables (use ``transaction``)."""
        return self._con

    def close(self) -> None:
        """Close the connection (and release the file lock), then the file's bytes reader if
        one was opened (:mod:`ledger.store.rawfile`). Idempotent."""
        self._con.close()
        rawfile.release(self.path)

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def released(self) -> Iterator[None]:
        """Let other processes open the file read-only during the block (worker processes
        reading the ledger): a ledger open for writing closes its connection and opens the
        file again after the block, in the same mode; a read-only one (an overlay included)
        stays open, DuckDB letting many processes read a file.

        Raises:
            LedgerError: an in-memory ledger, or inside a transaction (nothing to share, or
                work that closing would lose).
            LedgerBusy: another process took the file for writing meanwhile (at the end).
        """
        if self.path == ":memory:" or self._depth:
            raise LedgerError(f"ledger {self.path} cannot be shared with other processes now")
        if self.read_only:
            yield
            return
        self._con.close()
        try:
            yield
        finally:
            try:
                self._con = duck.connect(self.path)
            except duckdb.Error as e:
                raise self._translate(e) from e

    @property
    def in_transaction(self) -> bool:
        """Whether a :meth:`transaction` is open: a write made now joins it."""
        return self._depth > 0

    def aborted_by(self, exc: LedgerError) -> None:
        """For a caller that passes over a :class:`LedgerError` (a check that cannot say):
        raise ``exc`` again when it is a DuckDB error's (its ``__cause__``) met inside a
        :meth:`transaction`, which DuckDB aborted at it (nothing can go on in it: the
        transaction rolls back with that error); else return.

        Raises:
            LedgerError: ``exc``, as said.
        """
        if self._depth and isinstance(exc.__cause__, duckdb.Error):
            raise exc

    @contextmanager
    def transaction(self, *, capped: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """One transaction on :attr:`connection`: commit on success, roll back on any error.

        Nests: an inner ``transaction()`` (or an ``append`` inside one) joins the outer one, so
        a failure anywhere rolls back everything and the outer block must let it propagate.
        The outer one tells :mod:`ledger.store.landing` when it begins (an interrupt the CLI
        held since the last commit stops it there) and that its commit is under way (marked
        before the commit starts: Ctrl-C from then on is held, not an abort).

        ``capped`` (an outer transaction of many appends, a large import): DuckDB's memory is
        capped until the commit, just above what the transaction's unique indexes take
        (:mod:`ledger.store.spill`), so that it stays flat however many rows are appended.

        Raises:
            DuplicateEvent, LedgerBusy, LedgerError: DuckDB errors of the block or the commit,
                translated (``from`` the original); LedgerErrors of the block pass through.
        """
        outer = self._depth == 0
        beside = outer and capped
        try:
            if outer:
                landing.resume()
                if beside:  # as a file's own DuckDB spills; before the transaction, which a
                    duck.spill_beside(self._con, self.path)  # refused move would abort
                self._con.begin()
                self._appended.begin()
            self._depth += 1
            try:
                if beside:
                    self._uncapped = spill.limit(self._con)
                    spill.cap(self._con)
                yield self._con
            except BaseException:
                if outer:
                    self._rollback()
                raise
            finally:
                self._depth -= 1
            if outer:
                self._commit()
        except duckdb.Error as e:
            raise self._translate(e) from e
        except RuntimeError as e:  # Ctrl-C inside DuckDB (an appender, the commit): rolled
            if "interrupted" in str(e).lower():  # back above; said as the interrupt it was
                raise KeyboardInterrupt from e
            raise
        finally:
            if beside:  # after the transaction, for the same reason
                with suppress(duckdb.Error):  # the folder stays where DuckDB keeps it
                    duck.spill_apart(self._con)

    def _commit(self) -> None:
        """The outer transaction's commit (:meth:`transaction`), rolled back on any error."""
        try:
            self._not_aborted()
            if self._uncapped is not None and not spill.commit_capped(self._con):
                self._lift_cap()  # the commit merges the indexes: not under the cap
            with landing.committing():
                self._con.commit()
            self._appended.end()
        except BaseException:  # an interrupt before the commit began included
            self._rollback()
            raise
        with suppress(duckdb.Error):  # committed: never an error said after it
            self._lift_cap()

    def _not_aborted(self) -> None:
        """Before a commit: the transaction still open. DuckDB aborts a transaction at any
        error in it, and its commit then ends it as a rollback without a word: a DuckDB error
        caught and not raised again inside one would lose the write unsaid.

        Raises:
            LedgerError: the transaction was aborted (nothing is written).
        """
        try:
            self._con.execute("SELECT 1").fetchall()
        except duckdb.TransactionException as e:
            raise LedgerError(f"ledger {self.path}: the write was aborted by a database error"
                              " met on the way; nothing written") from e

    def _rollback(self) -> None:
        self._appended.end()
        with suppress(duckdb.Error):  # DuckDB may have ended the failed transaction already
            self._con.rollback()
        with suppress(duckdb.Error):  # never in place of the transaction's own error
            self._lift_cap()

    def _lift_cap(self) -> None:
        """DuckDB's memory limit as before a capped transaction (:meth:`transaction`)."""
        if self._uncapped is not None:
            before, self._uncapped = self._uncapped, None
            spill.lift(self._con, before)

    def _recap(self) -> None:
        """After an append in a capped transaction: the cap raised as the indexes grew."""
        if self._uncapped is not None:
            spill.cap(self._con)

    # ------------------------------------------------------------------------------- writing

    def append(
        self,
        stream: str,
        events: Sequence[Event],
        *,
        hand_id: str | None = None,
        session: str | None = None,
        source_key: str | None = None,
        expected_seq: int | None = None,
    ) -> list[int]:
        """Append ``events`` to ``stream`` in one transaction (all rows or none) and return
        their global positions. Seqs continue the stream from its last seq.

        ``hand_id`` defaults to ``stream`` for a hand stream and must be None for a session
        stream (``session:<name>``, whose ``session`` is ``<name>``). ``session`` defaults to
        the stream's stored session, else a ``HandStarted.session`` in ``events``.
        ``source_key`` is stored on every row; if any row already has it, nothing is written
        and ``[]`` is returned (idempotent re-import). ``expected_seq`` is the stream's last
        seq the caller saw (0 for a new stream): optimistic concurrency.

        Raises:
            MalformedEvent: not an event, a session event on a hand stream (or the reverse),
                or stream / hand_id / session that contradict each other or the stored stream.
            DuplicateEvent: the stream moved past ``expected_seq``, or a (stream, seq) or
                position was written concurrently.
            ChainBroken: the recorded head is not the last stored row, or that row does
                not hash right or link to the row before it (:meth:`_append_head`).
            LedgerError: read-only ledger, or another database failure.
        """
        from ledger.store.chain import prepare_batch

        with gc_paused():
            batch = prepare_batch(stream, events, hand_id, session, source_key)
            batch.expected_seq = expected_seq
            return self._write([batch])[0]

    def append_many(self, batches: Iterable[Batch]) -> list[list[int]]:
        """Append many ``(stream, events, hand_id, session, source_key)`` batches (arguments as
        in :meth:`append`; a :class:`Batch`'s ``line`` is not stored) with one bulk insert in
        ONE transaction: a failure in any batch rolls back all of them. Batches whose
        source_key is stored (or repeats an earlier batch's) are skipped. Returns the
        positions of each batch, ``[]`` for skipped ones.

        Raises:
            The same as :meth:`append` (nothing is written when anything fails).
        """
        from ledger.store.chain import prepare_batch

        with gc_paused():
            memo: dict[int, tuple[str, int, str]] = {}
            return self._write([prepare_batch(*item[:5], memo=memo) for item in batches])

    def append_after(self, appends: Sequence[tuple[str, Sequence[Event], int]]
                     ) -> list[list[int]]:
        """Append to many hand streams with one insert in ONE transaction (all or none): each
        ``(stream, events, expected_seq)`` as :meth:`append` appends ``events`` to the hand
        stream ``stream`` after its seq ``expected_seq`` (``hand_id`` the stream, ``session``
        the stored one), in the order given. Returns the positions of each.

        Raises:
            The same as :meth:`append` (nothing is written when anything fails).
        """
        from ledger.store.chain import prepare_batch

        with gc_paused():
            memo: dict[int, tuple[str, int, str]] = {}
            batches = []
            for stream, events, seq in appends:
                batch = prepare_batch(stream, events, stream, None, None, memo=memo)
                batch.expected_seq = seq
                batches.append(batch)
            return self._write(batches)

    def append_columns(self, cols: PreparedColumns) -> range:
        """Append rows prepared as columns (:mod:`ledger.store.columns`, e.g. by a worker
        process) in one transaction that joins the caller's (:meth:`transaction`): positions
        after the head, hashes linked, inserted as columns. Returns the positions.

        A stream must be new (``starts`` 1: no row of it stored) or continue at its stored
        last seq + 1 with the same session: every stream's tail is looked up first, whether or
        not the table has keys (store version, module doc). Unlike
        :meth:`append_many`, source keys are NOT looked up: the caller makes sure that none
        is stored (e.g. because the rows' hands and sessions are all new).

        Raises:
            DuplicateEvent: a stream is stored, or has moved past where the rows continue it.
            ChainBroken: the recorded head is not the last stored row, or that row does
                not hash right or link to the row before it (:meth:`_append_head`).
            LedgerError: read-only ledger, or another database failure.
        """
        from ledger.store.columns import link_columns

        if self.read_only:
            raise LedgerError(f"ledger {self.path} is open read-only")
        if not len(cols):
            return range(0)
        import numpy as np

        from ledger.store.arrow import (
            fixed_text,
            insert_arrow,
            int_column,
            joined_text,
            repeated_text,
            text_column,
            timestamp_column,
        )

        with gc_paused(), self.transaction() as con:
            _numbered_in_order(cols)
            recorded = self._head()  # read once: the tails' bound and the head appended to
            tails = self._tails(list(cols.starts), base=recorded[0] if recorded else 0)
            for stream, first in cols.starts.items():
                last, stored = tails.get(stream, (0, None))
                if last != first - 1:
                    raise DuplicateEvent(f"stream {stream!r} is at seq {last}, not "
                                         f"{first - 1}")
                if last and stored != cols.session[cols.stream.index(stream)]:
                    raise MalformedEvent(f"stream {stream!r} belongs to session {stored!r}")
            head = self._append_head(recorded)
            position, prev = head
            hashes = link_columns(prev.encode(), position + 1, cols)
            n = len(hashes)
            counts = np.array(cols.count, dtype=np.int64)
            offsets = np.cumsum(counts) - counts  # each batch's first row
            chain = b"".join([prev.encode(), *hashes])  # prev_hash of row i: chain[64i:64i+64]
            if len(chain) == 64 * (n + 1):
                prev_hashes, row_hashes = fixed_text(chain, 64, n), fixed_text(chain, 64, n,
                                                                              offset=1)
            else:  # a head hash that is not 64 hex digits (never written by this store)
                texts = [prev, *(h.decode() for h in hashes)]
                prev_hashes, row_hashes = text_column(texts[:-1]), text_column(texts[1:])
            arrays = {
                "position": int_column(np.arange(position + 1, position + 1 + n)),
                "recorded_at": timestamp_column(np.full(n, np.datetime64(cols.recorded_at,
                                                                         "us"))),
                "seq": int_column(np.arange(n, dtype=np.int64) + np.repeat(
                    np.array(cols.first_seq, dtype=np.int64) - offsets, counts)),
                "schema_version": int_column(cols.schema_version),
                "type": text_column(cols.type, few=True),
                "payload": joined_text(cols.payload),
                "prev_hash": prev_hashes,
                "hash": row_hashes,
            }
            for name in ("stream", "hand_id", "session", "source_key"):
                arrays[name] = repeated_text(getattr(cols, name), cols.count)
            with self._appended.writing(position + 1) as written:
                insert_arrow(con, "events", COLUMNS, arrays)
                lasts = [first + count - 1 for first, count in zip(cols.first_seq, cols.count,
                                                                   strict=True)]
                written.update(zip(cols.stream, zip(lasts, cols.session, strict=True),
                                   strict=True))  # a stream's last batch gives its tail
            con.execute(
                "UPDATE meta SET value = CASE key WHEN 'head_position' THEN $1 ELSE $2 END"
                " WHERE key IN ('head_position', 'head_hash')",
                [str(position + n), hashes[-1].decode()],
            )
            self._recap()
        return range(position + 1, position + 1 + n)

    def _write(self, batches: list[PreparedBatch]) -> list[list[int]]:
        from ledger.store.chain import check_tail, link_rows

        if self.read_only:
            raise LedgerError(f"ledger {self.path} is open read-only")
        result: list[list[int]] = [[] for _ in batches]
        work = [i for i, b in enumerate(batches) if b.payloads]
        if not work:
            return result
        now = datetime.now(UTC).replace(tzinfo=None)
        with self.transaction() as con:
            keys = list({k for i in work if (k := batches[i].source_key) is not None})
            seen = set(self._known_sources(keys)) if keys else set()
            recorded = self._head()  # read once: the tails' bound and the head appended to
            tails = self._tails(list({batches[i].stream for i in work}),
                                base=recorded[0] if recorded else 0)
            head = self._append_head(recorded)
            position, prev = head
            rows: list[Row] = []
            wrote: dict[str, tuple[int, str | None]] = {}  # the tails this append writes
            for i in work:
                b = batches[i]
                if b.source_key is not None:
                    if b.source_key in seen:
                        continue
                    seen.add(b.source_key)
                last = check_tail(b, tails.get(b.stream, (0, None)))
                new = link_rows(
                    prev, first_position=position + 1, first_seq=last + 1, stream=b.stream,
                    hand_id=b.hand_id, session=b.session, source_key=b.source_key,
                    recorded_at=now, types=b.types, schema_versions=b.versions,
                    payloads=b.payloads,
                )  # fmt: skip
                rows.extend(new)
                result[i] = [row[0] for row in new]
                position, prev = new[-1][0], new[-1][11]
                tails[b.stream] = wrote[b.stream] = (new[-1][4], b.session)
            if rows:
                with self._appended.writing(rows[0][0]) as written:
                    _insert(con, rows)
                    written.update(wrote)
                con.execute(
                    "UPDATE meta SET value = CASE key WHEN 'head_position' THEN $1 ELSE $2 END"
                    " WHERE key IN ('head_position', 'head_hash')",
                    [str(position), prev],
                )
                self._recap()
        return result

    def _append_head(self, head: tuple[int, str] | None) -> tuple[int, str]:
        """The recorded head ``head`` (:meth:`_head`, read by the caller in the append's
        transaction), where an append continues the chain, once it is checked against
        the last stored row (the highest position, its hash): the rows appended take the
        head's position + 1, + 2, … and link to its hash, so a head that is not the last row
        would link them to a hash no row has (its hash edited), leave a gap (its position
        moved past the last row) or put two rows at one position (moved back, or a row put
        in after it), and ``verify`` would then blame rows that were never touched. Rows are
        stored in position order, so the query, bounded by the head's position, reads only
        the table's last row group: about 0.5 ms at 5 million rows (the last rows are looked
        for over the whole table only for the refusal). The last row is checked too: it
        hashes to its stored hash and links to the row before it
        (:func:`ledger.store.tail.check_last_row`: a row forged at the tail, or the head's
        row edited in place, is refused before anything is linked to it). So is a ledger
        rolled back behind its own checkpoints file: the file's last checkpoint is one it
        does not extend (:func:`ledger.store.rolledback.check_not_rolled_back`, one lookup).

        Raises:
            LedgerError: the head's meta rows are gone.
            ChainBroken: the head is not the last stored row (:func:`_head_damage`), or that
                row does not hash right or link to the row before it; nothing is written.
            LedgerError: the checkpoints file's last checkpoint is one the ledger does not
                extend, naming the file and line; nothing is written.
        """
        from ledger.store.chain import GENESIS
        from ledger.store.tail import check_last_row

        if head is None:
            raise LedgerError(f"ledger {self.path} lost its recorded head: nothing written; "
                              "run `handledger verify`")
        # no ORDER BY: sorting even these few rows cost 3 ms more on 3.5 million, measured
        rows = sorted(self._query(f"SELECT {COLUMNS} FROM events WHERE position >= $1 LIMIT 3",
                                  [head[0] - 1]), key=lambda row: row[0])
        tail = [row for row in rows if row[0] >= head[0]]
        if [(row[0], row[11]) for row in tail] != ([] if head == (0, GENESIS) else [head]):
            last = self._query("SELECT position, hash FROM events ORDER BY position DESC"
                               " LIMIT 2")
            raise _head_damage(self.path, head, [(int(p), h) for p, h in last])
        if tail:  # the last row hashes right and links to the row before (ledger.store.tail)
            prev = next((row for row in rows if row[0] == head[0] - 1), None)
            if prev is None and head[0] > 1:  # positions skipped before it: the row before
                prev = next(iter(self._query(f"SELECT {COLUMNS} FROM events WHERE position"
                                             " < $1 ORDER BY position DESC LIMIT 1",
                                             [head[0]])), None)
            check_last_row(self.path, prev, tail[0], head, self._position_of_hash)
        check_not_rolled_back(self.path, head[0], self.hash_at)
        return head

    def hash_at(self, position: int) -> str | None:
        """The stored hash of the row at ``position``; None when there is none."""
        rows = self._query("SELECT hash FROM events WHERE position = $1", [position])
        return str(rows[0][0]) if rows else None

    def check_tail(self) -> None:
        """Check the chain's tail as an append does before it writes (:meth:`_append_head`),
        writing nothing: a live write that reads rows before it appends (``hand start``'s
        hands in play) names an edited last row as its append would, not what the row says.

        Raises:
            LedgerError, ChainBroken: as :meth:`_append_head`.
        """
        self._append_head(self._head())

    # ------------------------------------------------------------------------------- reading

    def has_source(self, source_key: str) -> bool:
        """Whether any stored row carries ``source_key``."""
        return bool(self._known_sources([source_key]))

    def known_sources(self, keys: Sequence[str]) -> set[str]:
        """Those of ``keys`` that some stored row carries (one query)."""
        return set(self._known_sources(list(keys))) if keys else set()

    def read(self, stream: str, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The rows of ``stream`` with ``after < seq <= upto`` (no upper bound when None), by
        seq. ``[]`` when the stream exists but the window is empty.

        Raises:
            NotFound: the stream has no events at all.
        """
        rows = self._query(
            f"SELECT {COLUMNS} FROM events WHERE stream = $1 AND seq > $2"
            " AND ($3 IS NULL OR seq <= $3) ORDER BY seq",
            [stream, after, upto],
        )
        if not rows and not self._query("SELECT 1 FROM events WHERE stream = $1 LIMIT 1", [stream]):
            hint = self._in_another_case(stream)
            from ledger.store.chain import SESSION_PREFIX

            if not stream.startswith(SESSION_PREFIX):
                raise no_hand(self.path, stream, hint)
            raise NotFound(f"ledger {self.path} holds no session "
                           f"{stream.removeprefix(SESSION_PREFIX)!r}{hint}", hand=stream)
        return [StoredEvent(*row) for row in rows]

    def _in_another_case(self, stream: str) -> str:
        """``": did you mean 'u1'?"`` when the ledger holds ``stream`` in another case (``U1``
        typed for ``u1``), else ``""``: a pass over the rows, made only for the refusal."""
        same = [row[0] for row in self._query(
            "SELECT DISTINCT stream FROM events WHERE lower(stream) = lower($1)"
            " ORDER BY stream LIMIT 3", [stream])]
        return f": did you mean {' or '.join(map(repr, same))}?" if same else ""

    def read_recent(self, stream: str) -> list[StoredEvent]:
        """The rows of ``stream`` by seq, all of them, as :meth:`read` gives them: looked for
        among the ledger's last ``_RECENT`` positions first, which hold them all when they
        hold its first row (positions and seqs grow together as rows are appended); read
        whole otherwise. What a hand recorded live reads at every action.

        Raises:
            NotFound: the stream has no events at all.
        """
        head = self._head()
        if head is not None and head[0] > _RECENT:
            rows = self._query(f"SELECT {COLUMNS} FROM events WHERE position > $1"
                               " AND stream = $2 ORDER BY seq", [head[0] - _RECENT, stream])
            if rows and rows[0][4] == 1:
                return [StoredEvent(*row) for row in rows]
        return self.read(stream)

    def streams(
        self,
        *,
        kind: Literal["hand", "session"] | None = None,
        session: str | None = None,
    ) -> list[str]:
        """Stream names in order of their first position. ``kind`` keeps hand streams (hand
        ids) or session streams (``session:<name>``); ``session`` keeps streams with rows of
        that session (the session's own stream included)."""
        where = {"hand": " AND hand_id IS NOT NULL", "session": " AND hand_id IS NULL"}
        rows = self._query(
            "SELECT stream FROM events WHERE ($1 IS NULL OR session = $1)"
            f"{where.get(kind or '', '')} GROUP BY stream ORDER BY min(position)",
            [session],
        )
        return [row[0] for row in rows]

    def stored(self) -> Iterator[StoredEvent]:
        """Every row in position order, fetched ``_PAGE`` positions at a time (memory flat:
        :meth:`_pages`)."""
        for row in self._pages():
            yield StoredEvent(*row)

    def count(self) -> int:
        """The number of stored rows."""
        return int(self._query("SELECT count(*) FROM events")[0][0])

    @property
    def opened_head(self) -> tuple[int, str] | None:
        """The recorded chain head (:meth:`head`) as the open read it, in the same query as
        the rest of ``meta`` (nothing written through this ledger since counts: what a command
        compares its head with after it wrote); an overlay's is read now."""
        return self._at_open[0] if self._at_open is not None else self._head()

    def head(self) -> tuple[int, str] | None:
        """The recorded chain head (last position, its hash) from ``meta``; ``(0, GENESIS)``
        for an empty ledger, None when the meta rows are gone."""
        return self._head()

    def verify(self, head: tuple[int, str] | None | EllipsisType = ...) -> VerifyReport:
        """Prove the chain intact by queries first (:func:`ledger.store.chainsql.proven_intact`:
        a third of the walk's CPU); when they do not, walk the chain in position order and
        report the first problem (see
        :func:`ledger.store.chain.diagnose` for how edited/deleted/inserted/reordered are told
        apart, :func:`ledger.store.chain.verify_rows` for a repeated or skipped seq), or two
        rows at one position (**duplicate**: what the primary key of store version 1 refused,
        module doc). ``head``: the recorded head (:meth:`head`) as the caller read it just
        before (a deliberate write's proof, :mod:`ledger.store.proven`); read here when not
        given.

        Raises:
            LedgerCorrupt: a damaged block of the file (a failed checksum) on the way.
            LedgerError: the database cannot be read.
        """
        from ledger.store import chainsql, headcheck
        from ledger.store.chain import VerifyReport, verify_rows

        if head is ...:  # not read by the caller (:meth:`head`): read here
            head = self._head()
        with self.memory_capped(_WALK_MEMORY):
            try:
                proven = chainsql.proven_intact(self._con, head,
                                                in_transaction=self.in_transaction)
            except duckdb.Error as e:
                raise self._translate(e) from e
        if proven is not None:  # the queries' proof; on any doubt the walk below decides
            return VerifyReport(True, proven[0], None, None, f"{proven[0]} rows verify", proven)
        with self.memory_capped(_WALK_MEMORY):
            try:  # only the recorded head wrong, the rows intact (ledger.store.headcheck)
                apart = headcheck.head_apart(self._con, head,
                                              in_transaction=self.in_transaction)
            except duckdb.Error as e:
                raise self._translate(e) from e
        if apart is not None:
            return apart
        report = verify_rows(self._pages(), head, self._position_of_hash,
                             self._position_of_seq)
        if self._meta().get("store_version") == "1":  # its primary key: one row a position
            return report
        # Two rows at one position are found by a query, not by the walk: which of the two
        # the walk meets first is DuckDB's choice (the second may then look like an edited
        # head, or be skipped where a page ends between them).
        repeated = self._repeated_position()
        if repeated and (report.first_bad is None or report.first_bad >= repeated[0][0]):
            position, first, second = repeated[0]
            return VerifyReport(False, position - 1, position, "duplicate",
                                f"two rows hold position {position} ({first} and {second})")
        return report

    # ------------------------------------------------------------------------------- helpers

    def _pages(self) -> Iterator[Row]:
        """Rows in position order, ``_PAGE`` positions at a time: ``position BETWEEN a AND b``,
        which DuckDB answers from the row groups whose min/max position (zonemaps) overlap
        the range, one or two as rows are appended in position order. Keyset paging
        (``position > x ORDER BY position LIMIT n``) scanned all the rows after ``x`` for every
        page instead: quadratic, over 12 minutes for 2.35 million rows (bench/PROFILE.md). A
        range holding no row (positions skipped) goes on at the next stored position; the
        rows at one position always come in one page. DuckDB's memory is capped meanwhile
        (:meth:`memory_capped`, ``_WALK_MEMORY``): it would keep every block read cached,
        about 100 bytes a row, which a walk never reads again."""
        first, last = self._query("SELECT min(position), max(position) FROM events")[0]
        start = first
        with self.memory_capped(_WALK_MEMORY):
            while start is not None and start <= last:
                end = min(start + _PAGE - 1, last)
                rows = self._query(f"SELECT {COLUMNS} FROM events WHERE position BETWEEN $1"
                                   " AND $2 ORDER BY position", [start, end])
                yield from rows
                start = end + 1
                if not rows and start <= last:
                    start = self._query("SELECT min(position) FROM events WHERE position"
                                        " >= $1", [start])[0][0]

    def _repeated_position(self) -> list[tuple[int, str, str]]:
        """``[(position, first, second)]`` for the lowest position two rows hold, each row
        named ``<stream> seq <seq>`` (the least and the greatest so named), or ``[]``. The
        positions are grouped alone, then the rows of the one found named: grouping with the
        names (text for every row) took 660 MB and 1.2 s of CPU for 2.35 million rows, this
        about 200 MB and 0.5 s."""
        found = self._query("SELECT position FROM events GROUP BY position"
                            " HAVING count(*) > 1 ORDER BY position LIMIT 1")
        if not found:
            return []
        return self._query("SELECT position, min(stream || ' seq ' || seq), max(stream ||"
                           " ' seq ' || seq) FROM events WHERE position = $1 GROUP BY position",
                           [found[0][0]])

    def _position_of_hash(self, digest: str) -> int | None:
        from ledger.store.chain import GENESIS

        if digest == GENESIS:
            return 0
        return self._query("SELECT min(position) FROM events WHERE hash = $1", [digest])[0][0]

    def _position_of_seq(self, stream: str, seq: int) -> int | None:
        return self._query("SELECT min(position) FROM events WHERE stream = $1 AND seq = $2",
                           [stream, seq])[0][0]

    def _tables(self) -> set[str]:
        """The names of the file's tables; only ``{"events", "meta"}`` when both are there,
        found by a query that names them and reads no row (listing the tables,
        ``duckdb_tables()``, costs more than all the reads of a live action)."""
        try:
            self._con.execute("SELECT 1 FROM events, meta WHERE false").fetchall()
        except duckdb.CatalogException:
            return {row[0] for row in self._query(duck.TABLES_HERE)}
        except duckdb.Error as e:
            raise self._translate(e) from e
        return {"events", "meta"}

    def _meta(self) -> dict[str, str]:
        return dict(self._query("SELECT key, value FROM meta"))

    def _head(self) -> tuple[int, str] | None:
        """The recorded chain head (last position, its hash); None if the meta rows are gone.
        Read as the open read it when the ledger is open read-only."""
        return _head_of(self._opened_meta if self._opened_meta is not None else self._meta())

    def _known_sources(self, keys: list[str]) -> list[str]:
        sql = "SELECT DISTINCT source_key FROM events WHERE source_key IN (SELECT unnest($1))"
        return [row[0] for row in self._query(sql, [keys])]

    def _tails(self, streams: list[str], *, base: int | None = None
               ) -> dict[str, tuple[int, str | None]]:
        """{stream: (last seq, session of the last row)} for the given streams that exist.
        Those appended in the open transaction are known without a query
        (:mod:`ledger.store.appended`); the others are looked for among the rows stored
        before it only, among the last ``_RECENT`` of them first (a stream's last row is its
        latest: a live hand's is there), then in all of them. An import into a new ledger
        so queries nothing after its first part, and one into a big ledger reads the stored
        rows alone, not those it appended (bench/PROFILE.md "The tails of an append").
        ``base``: the recorded head's position when the caller read it already (None: read
        here; 0 when the head is gone)."""
        sql = ("SELECT stream, max(seq), arg_max(session, seq) FROM events"
               " WHERE position > $2 AND position <= $3 AND stream IN (SELECT unnest($1))"
               " GROUP BY stream")
        appended = self._appended
        if appended.known:
            tails = {s: appended.tails[s] for s in streams if s in appended.tails}
            streams = [s for s in streams if s not in tails]
        else:
            tails = {}
        if not streams:
            return tails
        if appended.known and appended.first is not None:
            # the rows stored before the transaction's first append, whose head check
            # (_append_head) found none after them
            base = upto = appended.first - 1
            if upto <= 0:  # none (positions start at 1; the queries below skip 0 too)
                return tails
        else:
            if base is None:
                head = self._head()
                base = head[0] if head is not None else 0
            upto = _EVERY
        recent = base - _RECENT if base > _RECENT else 0
        found = {stream: (last, session) for stream, last, session in self._query(
            sql, [streams, recent, upto])}
        rest = [s for s in streams if s not in found] if recent else []
        if rest:
            found.update({stream: (last, session) for stream, last, session in self._query(
                sql, [rest, 0, recent])})
        tails.update(found)
        return tails

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one read query on the ledger and return its rows (for the store's own
        query modules, :mod:`ledger.store.streams`).

        Raises:
            LedgerError: a DuckDB error, translated.
        """
        return self._query(sql, params)

    @contextmanager
    def memory_capped(self, limit: str = "256MB") -> Iterator[None]:
        """Cap DuckDB's memory for the block, for a read of the ledger once, start to end:
        otherwise it keeps every block it read cached and memory grows with the ledger
        (about 1 kB a hand). The setting is restored after."""
        before = self._query("SELECT current_setting('memory_limit')")[0][0]
        self._con.execute(f"SET memory_limit = '{limit}'")
        with self._set_back(lambda: spill.lift(self._con, before)):
            yield

    @contextmanager
    def one_thread(self) -> Iterator[None]:
        """DuckDB on one thread for the block, writing every full row group out as it fills
        (not five at a time, DuckDB's default): while worker processes have the other CPUs,
        DuckDB's own threads would only contend with them, and the commit at the end is left
        with one row group's work. The settings are restored after."""
        con = self._con
        settings = ("threads", "write_buffer_row_group_count")
        before = [self._query(f"SELECT current_setting('{name}')")[0][0] for name in settings]
        con.execute("SET threads = 1")
        con.execute("SET write_buffer_row_group_count = 1")

        def restore() -> None:
            for name, value in zip(settings, before, strict=True):
                con.execute(f"SET {name} = {int(value)}")

        with self._set_back(restore):
            yield

    @contextmanager
    def _set_back(self, restore: Callable[[], None]) -> Iterator[None]:
        """``restore`` (settings put back) run after the block. Its DuckDB error is never said
        in place of the block's own, and is ignored outside a transaction; inside one, where
        it has aborted the transaction (DuckDB aborts one at any error), it is raised,
        translated, so that the transaction rolls back instead of going on to a commit that
        would write nothing.

        Raises:
            LedgerError: ``restore`` failed inside a transaction.
        """
        try:
            yield
        except BaseException:
            with suppress(duckdb.Error):
                restore()
            raise
        try:
            restore()
        except duckdb.Error as e:
            if self._depth:
                raise self._translate(e) from e

    def _query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        try:
            return self._kept.rows(self._con, sql, params)
        except duckdb.Error as e:
            raise self._translate(e) from e

    def translate(self, e: duckdb.Error) -> LedgerError:
        """The LedgerError for a DuckDB error met by code that queries :attr:`connection`
        itself (a damaged block: :class:`LedgerCorrupt`); the caller raises it ``from e``.

        Raises:
            KeyboardInterrupt: DuckDB stopped the query on Ctrl-C.
        """
        return self._translate(e)

    def _damage(self, text: str) -> str:
        """DuckDB's ``text`` for a damaged file, or the damage named as ``verify`` names it:
        the cut (:meth:`_cut`), or the block failing its checksum, its bytes and what it
        holds (:func:`ledger.store.blocks.failed_checksum`)."""
        if self.path == ":memory:" or "checksum" not in text:
            return self._cut(text)
        from ledger.store import blocks

        con = getattr(self, "_con", None)  # None: DuckDB's open of the file failed
        try:
            return blocks.failed_checksum(self.path, con, text) or text
        except OSError:
            return text

    def _cut(self, text: str) -> str:
        """DuckDB's ``text`` for a file it cannot read, or, when the file was cut short, the
        cut named: its size, where it ends and what is missing (``not a whole number of
        blocks: …`` or ``cut short: …``, :func:`ledger.store.cutshort.cut_before_open`)."""
        if self.path == ":memory:" or "Could not read enough bytes" not in text:
            return text
        try:
            return cutshort.cut_before_open(self.path, text) or text
        except OSError:
            return text

    def _translate(self, e: duckdb.Error) -> LedgerError:
        """The LedgerError for a DuckDB error (the caller raises it ``from e``).

        Raises:
            KeyboardInterrupt: DuckDB stopped the query on Ctrl-C (not a database error).
        """
        if isinstance(e, duckdb.InterruptException):
            raise KeyboardInterrupt from e
        text = str(e)
        if isinstance(e, duckdb.IOException) and (
            "lock on file" in text or "Conflicting lock" in text
        ):
            return _busy(self.path, text)
        if (isinstance(e, duckdb.ConnectionException) and "configuration" in text) or (
                "Unique file handle conflict" in text):
            return LedgerBusy(f"ledger {self.path} is busy: open in this process in another mode",
                              holder="mode")
        if isinstance(e, duckdb.IOException) and "does not exist" in text:
            return no_ledger(self.path)
        if isinstance(e, duckdb.IOException) and (
                "Permission denied" in text or "Read-only file system" in text):
            return LedgerReadOnly(f"ledger {self.path} cannot be written here: {text}")
        if isinstance(e, duckdb.ConstraintException):
            return _constraint(self.path, text)
        if isinstance(e, duckdb.TransactionException) and (
            "onflict" in text or "onstraint" in text
        ):
            return DuplicateEvent(
                f"ledger {self.path}: another writer appended at the same time; re-read and "
                f"retry ({text})"
            )
        if "cannot encode str as UTF-8" in text:  # a lone surrogate in a query parameter
            return MalformedInput("a name given is not UTF-8 (a byte that is not UTF-8, or a "
                                  "lone surrogate): a ledger holds UTF-8 text only")
        if "read-only" in text:
            return LedgerError(f"ledger {self.path} is open read-only")
        if isinstance(e, _BROKEN_STORAGE) or any(sign in text for sign in _CORRUPT_TEXTS):
            return LedgerCorrupt(f"ledger {self.path} is corrupt: {self._damage(text)}")
        return LedgerError(f"ledger {self.path}: database error: {text}")


def _head_of(meta: dict[str, str]) -> tuple[int, str] | None:
    """The chain head ``meta``'s rows record; None when they are gone."""
    position, digest = meta.get("head_position", ""), meta.get("head_hash")
    return (int(position), digest) if position.isdigit() and digest else None


def _numbered_in_order(cols: PreparedColumns) -> None:
    """Check that each stream's batches in ``cols`` number its rows on from its first seq
    there (``starts``), as :func:`ledger.store.columns.prepare_columns` makes them: rows
    appended as columns take these seqs as they are.

    Raises:
        DuplicateEvent: a batch's seqs do not follow the stream's rows before it in ``cols``.
    """
    following = dict(cols.starts)
    for stream, first, count in zip(cols.stream, cols.first_seq, cols.count, strict=True):
        if following.get(stream) != first:
            raise DuplicateEvent(f"stream {stream!r}: rows prepared at seq {first}, not after "
                                 f"seq {following.get(stream, 1) - 1}")
        following[stream] = first + count


def _constraint(path: str, text: str) -> DuplicateEvent:
    """The refusal for DuckDB's constraint error ``text`` on a write: a version 1 ledger's
    keys (module doc) refusing a position or a stream's seq that a row holds already,
    which the writer's own checks (the head against the last row, each stream's tail) let
    through only when the stored rows are damaged."""
    key = re.search(r'[Dd]uplicate key "(.*)"', text)
    # "position: 7" or "stream: h1, seq: 4"; a repeat within one insert: "7" or "h1, 4"
    named = key.group(1).removeprefix("position: ").removeprefix("stream: ") if key else ""
    values = re.sub(r", seq: (\d+)$", r", \1", named).rsplit(", ", 1) if key else []
    if len(values) == 1 and values[0].isdigit():
        held = f"a row at position {values[0]}"
    elif len(values) == 2 and values[1].isdigit():
        held = f"a row of {values[0]} at seq {values[1]}"
    else:
        return DuplicateEvent(f"ledger {path}: the write breaks a constraint of its tables"
                              f" ({text}): nothing written; run `handledger verify`")
    return DuplicateEvent(f"ledger {path} already holds {held} where this write would put "
                          "one: its rows and its head disagree (a damaged ledger): nothing "
                          "written; run `handledger verify`")


def _head_damage(path: str, head: tuple[int, str], last: list[tuple[int, str]]
                 ) -> ChainBroken:
    """The refusal of an append onto ``head`` (the ``meta`` rows) that is not the last stored
    row: ``last``, the rows at the highest position (none: an empty table; two: two rows hold
    that position)."""
    if len(last) == 2 and last[0][0] == last[1][0]:
        found = f"its last rows: two rows hold position {last[0][0]}"
    elif last:
        found = f"its last row {_point(*last[0])}"
    else:
        found = "its rows: none is stored"
    return ChainBroken(f"ledger {path}: the ledger's head {_point(*head)} does not match "
                       f"{found}: nothing written; run `handledger verify`")


def _point(position: int, digest: str) -> str:
    """``position:hash`` as a message shows it, a 64-digit hash cut to its first 16."""
    return f"{position}:{digest[:16]}..." if len(digest) > 16 else f"{position}:{digest}"


def _busy(path: str, text: str) -> LedgerBusy:
    """The :class:`LedgerBusy` for DuckDB's lock error ``text``: the holder only reads when
    DuckDB says the file could still be opened read-only; which process it is, as the
    system names the pid DuckDB gives (:func:`ledger.store.holders.holder_words`)."""
    holder = "reader" if "read-only mode" in text else "writer"
    who = holder_words(text)
    if holder == "reader":
        return LedgerBusy(f"ledger {path} is busy: {who} is reading it, which keeps writers out "
                          "until it ends", holder=holder, who=who)
    return LedgerBusy(f"ledger {path} is busy: {who} is writing it", holder=holder, who=who)


def _new_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create the tables of an empty ledger and its head (in the caller's transaction)."""
    from ledger.store.chain import GENESIS

    for ddl in _SCHEMA:
        con.execute(ddl)
    con.execute("INSERT INTO meta VALUES ('store_version', ?), ('head_position', '0'),"
                " ('head_hash', ?) ON CONFLICT DO NOTHING", [str(STORE_VERSION), GENESIS])


def _create(path: str) -> None:
    """Make a new ledger file at ``path`` whole or not at all: its tables are written into a
    file of its own beside ``path`` (``<path>.<pid>-<hex>.new``), which is then linked into
    place. A creation cut short (Ctrl-C, ``kill -9``) leaves no ledger without tables, which
    every read would call corrupt, only that file. When another process made the ledger
    meanwhile, its file is kept. DuckDB's own errors are left to the open that follows."""
    partial = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.new"
    try:
        try:
            con = duck.connect(partial)
        except duckdb.Error:
            return  # a folder that is not there, say: the open says so
        try:
            con.execute("BEGIN TRANSACTION")
            _new_schema(con)
            con.execute("COMMIT")
        finally:
            con.close()
        try:
            os.link(partial, path)
        except FileExistsError:
            pass  # another process made it first: its ledger is the ledger
        except OSError:  # a file system without hard links
            if not os.path.lexists(path):
                os.replace(partial, path)
    finally:
        for leftover in (partial, f"{partial}.wal"):
            with suppress(FileNotFoundError):
                os.unlink(leftover)


def _file_mode(path: str) -> int | None:
    """``path``'s ``st_mode``; None for ``:memory:`` or a path not there (a new ledger), or
    one that cannot be stat'ed (DuckDB then says why)."""
    if path == ":memory:":
        return None
    try:
        return os.stat(path).st_mode
    except OSError:
        return None


def not_write_protected(path: str) -> None:
    """Refuse to open for writing a ledger file whose write permission bits are all off
    (``chmod a-w``): its owner made it read-only, and the superuser, whom the system lets
    write any file, must not write it either. Called before DuckDB opens the file, which
    writes it on opening (its header, a checkpoint) even when nothing is appended, and
    before ``checkpoint`` appends to the ledger's own checkpoints file
    (:func:`ledger.store.checkpoint.take`): a file beside a locked ledger is not made.

    Raises:
        LedgerReadOnly: naming the file; a reader opens it read-only instead.
    """
    mode = _file_mode(path)
    if mode is not None and stat.S_ISREG(mode) and not mode & (
            stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise LedgerReadOnly(f"{path} is read-only (no write permission on the file): "
                             f"nothing written (`chmod u+w {path}` to write it)")


def _regular_or_new(path: str) -> None:
    """Refuse a ledger path that is there but not a regular file: DuckDB would wait for ever
    on a pipe and write into a device.

    Raises:
        LedgerError: naming what it is.
    """
    mode = _file_mode(path)
    if mode is not None and not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
        raise LedgerError(f"ledger {path} is {kind}, not a ledger file")


def _folder_to_create_in(path: str) -> None:
    """Refuse to create a ledger in a folder that does not exist: DuckDB's "IO Error: Cannot
    open file" said nothing of the folder.

    Raises:
        LedgerError: naming the missing folder.
    """
    folder = os.path.dirname(path) or "."
    if _file_mode(path) is None and not os.path.isdir(folder):
        raise LedgerError(f"no folder {folder} to create the ledger {path} in (a ledger is "
                          "made only inside a folder that exists)")
