"""One partition of a distributed replay (:mod:`replay.distributed`): the events of some
sessions in, their derived-table rows written as Parquet, their audited books out.

A partition holds every row of some sessions (their session rows and their hands, RULES.md
§1.1: a session's chips move only within it, so its books fold on their own) and some whole
hands of no session. Its hands are replayed in ledger order with the code the local replay
runs (:func:`replay.replaying.replay_chunk` over ``(ord, RawHand)``, each hand's ``ord`` its
place among the first positions of every hand of the ledger) and folded by one
:class:`ledger.audit.stream.StreamAudit` (the stored audit's hand and session checks; the
series checks run once, over the merged books); its session rows are read as the books read
them (entry corrections applied, :func:`ledger.audit.load.typed_rows`; each at its place
among the hands, :func:`ledger.audit.load.placed`). Their rows are
gathered as columns (:func:`replay.tables.table_columns`), inserted into an in-memory DuckDB
holding the replay tables' own schema and copied out as one Parquet file per table
(``<out>/<table>/part-NNNNN.parquet``). This module does not import Dask: a worker calls
:func:`replay_part` on a pandas frame of the partition's rows. The local replay over ranges of
a ledger file (:mod:`replay.ranges`) runs the same code (:func:`read_raw`,
:func:`replay_numbered`), its columns going back to the process that writes the file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from ledger.audit.books import SessionBook
from ledger.audit.checks import STORED, Scope
from ledger.audit.load import corrections_of, placed, typed_rows
from ledger.audit.stream import StreamAudit
from ledger.model.errors import LedgerError
from replay.replaying import Render, replay_chunk

#: The tables each partition writes (:mod:`replay.tables`).
HAND_TABLES = ("hands", "pots", "results", "discrepancies")
#: The columns of the events table a partition reads.
COLUMNS = ("position", "stream", "hand_id", "session", "seq", "type", "payload")
_CHUNK = 250  # hands per replay_chunk call, as the local replay
_CHECKS = tuple(c for c in STORED if c.scope is not Scope.SERIES)
_SEPARATOR = "\x00"  # between payloads sent as one text: JSON holds no raw NUL character


@dataclass
class PartResult:
    """What one partition gives back (chips): its books in fold order, hands dropped (key
    None: its share of the hands of no session); its findings with their sort keys
    (``StreamAudit.finish_keyed``); per book the names seated at its tables before aliases;
    for its hands of no session the ledger position of each player's last one (series names),
    the same per chip unit of those hands (``last_by_unit``), and of the last one; the counts
    (hands, bad, unverifiable); its incomplete hands as ``(ord, hand, session)``; the chip
    of each of its hands of no session that a finding names, when worth money (``units``:
    ``hand -> (minor units a chip is worth, decimals, currency)``, as
    :class:`ledger.audit.tables.AuditReport` keeps them); the texts
    of its rendered hands in ledger order (none unless asked); its derived tables' rows as
    columns (:func:`replay.tables.arrow_columns`) when the partition does not write them
    itself; the corrections of its hands appended after later events took their chips, each
    with the ledger position of its row (``late``:
    :class:`replay.late_corrections.LateCorrection`, what ``audit`` notes)."""

    books: dict[str | None, SessionBook]
    findings: list[tuple[int, int, int, Any]]
    seated: dict[str | None, set[str]]
    last_seen: dict[str, int] = field(default_factory=dict)
    last_loose: int = 0
    last_by_unit: dict[tuple[int, str | None, int], dict[str, int]] = field(
        default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    incomplete: list[tuple[int, str, str | None]] = field(default_factory=list)
    units: dict[str, tuple[int, int, str | None]] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    late: list[tuple[int, Any]] = field(default_factory=list)


def part_path(out: str, table: str, number: int) -> str:
    """Where partition ``number`` writes ``table`` under the output directory ``out``."""
    return f"{out.rstrip('/')}/{table}/part-{number:05d}.parquet"


def replay_part(events: Any, number: int, starts: Any, aliases: Mapping[str, str],
                out: str) -> PartResult:
    """Replay, audit and write one partition.

    ``events``: a frame (pandas, or anything DuckDB scans) of the events table's
    :data:`COLUMNS` for whole sessions and whole hands; ``starts``: the sorted ledger
    positions of every hand's first row (seq 1) in the dataset (numpy ``int64``); ``aliases``:
    the series' alias map; ``out``: the output directory (a local path, or a URL that the
    fsspec file systems installed on the worker know).

    A hand whose payloads do not parse or whose events the rules refuse is an
    ``unreplayable`` hand and finding, as in the local replay (:func:`replay_chunk`). A
    hand of its sessions corrected or voided after a later start or cash-out took its chips
    is taken as it stood by that event (:func:`replay.late_corrections.revisions_in`), as
    the local replay takes it.

    Raises:
        LedgerError: a session row that does not parse (located at its stream), a hand
            without its first row (located at the hand), or a table that cannot be written;
            MalformedEvent: a payload of such a corrected hand that does not parse (the
            local replay refuses it too).
    """
    from ledger.store.duck import connect
    from replay.late_corrections import revisions_in

    con = connect()
    try:
        con.register("part", events)
        rows = read_part(con)
        revised = revisions_in(con, "part")
    finally:
        con.close()
    return replay_rows(rows, number, starts, aliases, out, revised=revised)


@dataclass
class RawPart:
    """What a partition reads of its rows, untyped and cheap to send to another process: its
    hands ``(hand, session, rows, first position)`` in ledger order; the payloads of their
    rows in that order (hand after hand, each in stream order), joined by
    :data:`_SEPARATOR` (a character no JSON text holds; a list of texts when one holds it);
    the payloads of the hands whose rows do not follow one another (a correction or a void
    appended later), read on their own; its session rows ``(position, stream, session,
    payload, seq)`` in ledger order, its ``entry_corrected`` rows ``(stream, payload)`` in
    ledger order and the last position of each session in it (key None: its hands of no
    session)."""

    hands: list[tuple[str, str | None, int, int]]
    payloads: str | list[str]
    apart: dict[str, list[str]]
    rows: list[tuple[int, str, str | None, str, int]]
    fixes: list[tuple[str, str]]
    ends: dict[str | None, int]

    def typed(self) -> PartRows:
        """The :class:`PartRows` of these rows (session rows as the books read them).

        Raises:
            LedgerError: a session row that does not parse (located at its stream).
        """
        texts = self.payloads
        if isinstance(texts, str):
            texts = texts.split(_SEPARATOR) if texts else []
        hands: list[tuple[str, str | None, list[str], int]] = []
        k = 0
        for hand, session, count, low in self.hands:
            body = self.apart.get(hand)
            if body is None:
                body, k = texts[k:k + count], k + count
            hands.append((hand, session, body, low))
        rows = placed(None, list(typed_rows(self.rows, corrections_of(self.fixes))),
                      {(session, hand): low for hand, session, _, low in self.hands
                       if session is not None})
        return PartRows(hands, rows, self.ends)


@dataclass
class PartRows:
    """What a partition reads of its rows: its hands as ``(hand, session, payloads, first
    position)`` in ledger order, its session rows as the books read them and the last
    position of each session in it (key None: its hands of no session)."""

    hands: list[tuple[str, str | None, list[str], int]]
    rows: list[Any]
    ends: dict[str | None, int]


def read_part(con: Any) -> PartRows:
    """The :class:`PartRows` of the relation ``part`` (the events table's :data:`COLUMNS`)
    on the DuckDB connection ``con``.

    Raises:
        LedgerError: a session row that does not parse (located at its stream).
    """
    return read_raw(con, "part").typed()


def read_raw(con: Any, source: str) -> RawPart:
    """The :class:`RawPart` of ``source``, a relation (a name or a parenthesised query) with
    the events table's :data:`COLUMNS` holding whole sessions and whole hands, on the DuckDB
    connection ``con``. Each hand's payloads come in stream order (``seq``): those of hands
    whose rows follow one another as one text (their ledger order), the others' read on
    their own."""
    hands = con.execute(
        "SELECT hand_id, arg_min(session, position), count(*), min(position), max(position)"
        f" FROM {source} WHERE hand_id IS NOT NULL GROUP BY hand_id ORDER BY 4").fetchall()
    apart = [h for h, _, count, low, high in hands if high - low + 1 != count]
    scattered: dict[str, list[str]] = {}
    where = f"FROM {source} WHERE hand_id IS NOT NULL"
    params: list[Any] = []
    if apart:
        scattered = dict(con.execute(
            f"SELECT hand_id, list(payload ORDER BY seq) {where} AND list_contains($1, hand_id)"
            " GROUP BY hand_id", [apart]).fetchall())
        where, params = f"{where} AND NOT list_contains($1, hand_id)", [apart]
    # fetched as one numpy column and joined here: 0.06 s of CPU against 0.1-0.2 for DuckDB's
    # string_agg of a range's 175,000 payloads (bench/PROFILE.md, "the first saving replay
    # under 150 s"); one text pickles to a worker at a fraction of a list's cost
    texts = con.execute(f"SELECT payload {where} ORDER BY position",
                        params).fetchnumpy()["payload"].tolist()
    payloads: str | list[str] = texts
    with suppress(TypeError):  # a NULL payload (None): the list as it is
        joined = _SEPARATOR.join(texts)
        if joined.count(_SEPARATOR) == max(len(texts) - 1, 0):  # else a text holds it
            payloads = joined
    fixes = con.execute(f"SELECT stream, payload FROM {source} WHERE type = 'entry_corrected'"
                        " ORDER BY position").fetchall()
    rows = con.execute(f"SELECT position, stream, session, payload, seq FROM {source}"
                       " WHERE hand_id IS NULL ORDER BY position").fetchall()
    ends = dict(con.execute(f"SELECT session, max(position) FROM {source} GROUP BY session"
                            ).fetchall())
    return RawPart([(h, session, count, low) for h, session, count, low, _ in hands],
                   payloads, scattered, rows, fixes, ends)


def replay_rows(part: PartRows, number: int, starts: Any, aliases: Mapping[str, str],
                out: str, *, first_ord: int = 1, render: Render | None = None,
                problems: bool = False, revised: Any = None) -> PartResult:
    """Replay, audit and write the partition read as ``part`` (arguments as in
    :func:`replay_part`). ``first_ord``: the ``ord`` of the hand whose first row is
    ``starts[0]`` (1 when ``starts`` holds every hand of the dataset); ``render``: each hand
    rendered into :attr:`PartResult.texts` (``problems``: only those with a discrepancy or a
    note), as :func:`replay.replaying.replay_chunk` renders; ``revised``: the hands of its
    sessions corrected or voided after later events took their chips
    (:func:`replay.late_corrections.revisions_in`), whose later starts and cash-outs the
    books take as the hands stood then, as the local replay does.

    Raises:
        LedgerError: a hand without its first row (located at the hand), or a table that
            cannot be written.
    """
    import numpy as np

    hands = part.hands
    firsts = np.asarray([h[3] for h in hands], dtype=np.int64)
    ords = np.searchsorted(starts, firsts)
    for i, (hand, *_rest) in enumerate(hands):
        if ords[i] >= len(starts) or starts[ords[i]] != firsts[i]:
            raise LedgerError("the dataset has no first event (seq 1) of this hand", hand=hand)
    numbered = [(int(o) + first_ord, tuple(h)) for o, h in zip(ords, hands, strict=True)]
    result = replay_numbered(part, numbered, aliases, render, problems, revised)
    _write(result.tables, out, number)
    result.tables = {}
    return result


def replay_numbered(part: PartRows, numbered: Sequence[tuple[int, Any]],
                    aliases: Mapping[str, str], render: Render | None = None,
                    problems: bool = False, revised: Any = None) -> PartResult:
    """Replay and audit the hands of ``part`` numbered ``(ord, RawHand)`` in ledger order,
    with its session rows (:class:`ledger.audit.stream.StreamAudit`); the derived tables'
    rows in :attr:`PartResult.tables` as Arrow columns (:func:`replay.tables.arrow_columns`).

    Raises:
        LedgerError: a value a derived table cannot hold.
    """
    from replay.tables import arrow_columns

    audit = StreamAudit(part.rows, part.ends, aliases=aliases, checks=_CHECKS, revised=revised)
    result = PartResult({}, [], {}, counts={"hands": 0, "bad": 0, "unverifiable": 0})
    tables: dict[str, list[tuple]] = {table: [] for table in HAND_TABLES}
    _replayed(numbered, audit, result, aliases, tables, render, problems)
    series, result.findings = audit.finish_keyed()
    if audit.stood:
        from replay.late_corrections import late_of_books

        result.late = late_of_books(audit.stood, revised)
    named = {d.hand for *_, d in result.findings}
    result.units = {hand: unit for hand, unit in result.units.items() if hand in named}
    result.books = series.sessions
    result.tables = {table: arrow_columns(table, rows) for table, rows in tables.items()}
    return result


def _replayed(numbered: Sequence[tuple[int, Any]], audit: StreamAudit, result: PartResult,
              aliases: Mapping[str, str], tables: Mapping[str, list[tuple]],
              render: Render | None = None, problems: bool = False) -> None:
    """Replay ``numbered`` a chunk at a time, their table rows appended to ``tables``, and
    fold each hand into ``audit`` and ``result`` (its text, when rendered, into
    ``result.texts``)."""
    counts = result.counts
    seated = result.seated
    for low in range(0, len(numbered), _CHUNK):
        for done in replay_chunk(numbered[low:low + _CHUNK], render, problems, facts=True,
                                 tables=tables):
            if done.text is not None:
                result.texts.append(done.text)
            h = done.facts
            audit.add(h)
            counts["hands"] += 1
            counts["bad"] += done.bad
            counts["unverifiable"] += done.unverifiable
            names = seated.get(h.session)
            if names is None:
                names = seated[h.session] = set()
            names.update(h.starting)
            if h.session is None:
                of_unit = result.last_by_unit.setdefault(h.unit, {})
                for p in h.starting:
                    result.last_seen[aliases.get(p, p)] = of_unit[aliases.get(p, p)] = (
                        h.position)
                result.last_loose = h.position
                minor, currency, decimals = h.unit
                if currency is not None or decimals > 0 or minor > 1:  # worth money
                    result.units[h.hand] = (minor, decimals, currency)
            if h.status == "incomplete":
                result.incomplete.append((h.ord, h.hand, h.session))


def _write(tables: Mapping[str, Mapping[str, Any]], out: str, number: int) -> None:
    """Insert the partition's columns into the replay tables of an in-memory DuckDB and copy
    each table to its Parquet file (DuckDB's own Parquet writer: the columns and types of
    ``export``)."""
    from ledger.store.duck import connect, private
    from replay.tables import create_tables, insert_columns

    with private():  # a file system registered is the DuckDB instance's, not a connection's
        con = connect()
    try:
        register_file_system(con, out)
        create_tables(con)
        for table in HAND_TABLES:
            insert_columns(con, table, tables.get(table, {}))
            copy_table(con, table, part_path(out, table, number))
    finally:
        con.close()


def copy_table(con: Any, table: str, path: str) -> None:
    """``COPY table TO path`` as Parquet, the directory made first.

    Raises:
        LedgerError: the file cannot be written.
    """
    import duckdb

    try:
        if "://" not in path:
            from pathlib import Path

            Path(path).parent.mkdir(parents=True, exist_ok=True)
        con.execute(f"COPY {table} TO '{_quoted(path)}' (FORMAT PARQUET)")
    except (duckdb.Error, OSError) as exc:
        raise LedgerError(f"cannot write {path}: {exc}") from exc


def register_file_system(con: Any, out: str) -> None:
    """Let DuckDB write to ``out``'s file system when it is a URL (an object store): through
    the fsspec file system of that protocol, which must be installed where this runs."""
    if "://" in out:
        import fsspec

        con.register_filesystem(fsspec.filesystem(out.split("://", 1)[0]))


def _quoted(path: str) -> str:
    return path.replace("'", "''")
