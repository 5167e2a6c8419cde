"""What the streaming audit reads of the ledger before the hands: the session rows and where
each session ends (:class:`ledger.audit.stream.StreamAudit`).

Hands themselves are streamed and replayed by the caller (``cli``), which owns the replayer;
the ledger package does not import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ledger.audit.books import SessionRow
from ledger.audit.placing import Starts, hand_starts, named_hand, place
from ledger.model.errors import LedgerError
from ledger.model.events import parse_event


def session_rows(ledger: Any, *, sessions: Sequence[str] | None = None,
                 types: Sequence[str] | None = None, after: int = 0) -> list[SessionRow]:
    """Stored session events (rows of no hand) in the order the books count them, typed: all
    of them, or only those of ``sessions`` and/or of event ``types``, and after ledger
    position ``after``. Each row's position is its place among the hands
    (:func:`ledger.audit.placing.place`: a buy-in made before a hand counts just before it).

    Raises:
        MalformedEvent: a stored payload that does not parse (located at its stream).
    """
    rows = ledger.connection.execute(
        "SELECT position, stream, session, payload, seq FROM events WHERE position > $3"
        " AND hand_id IS NULL AND ($1 IS NULL OR list_contains($1, session))"
        " AND ($2 IS NULL OR list_contains($2, type)) ORDER BY position",
        [None if sessions is None else list(sessions),
         None if types is None else list(types), after]).fetchall()
    fixes = entry_corrections(ledger, sessions)
    return placed(ledger.connection,
                  [row for raw in rows if (row := _typed(*raw, fixes)) is not None])


def placed(con: Any, rows: list[SessionRow], starts: Starts | None = None
           ) -> list[SessionRow]:
    """``rows`` (typed, in ledger order) each at its place among the hands
    (:func:`ledger.audit.placing.place`), in that order (ledger order between equal places);
    ``starts``: the hands' first positions when the caller has them (a partition's), else
    read from the events table on ``con`` for the hands the rows name."""
    named = [(r.session, h) for r in rows if (h := named_hand(r.event)) is not None]
    if not named:  # most ledgers: no buy-in made before a hand
        return rows
    if starts is None:
        starts = hand_starts(con, named)
    moved = [SessionRow(place(r.position, r.session, r.event, starts), r.session, r.event)
             for r in rows]
    return sorted(moved, key=lambda r: r.position)


def iter_session_rows(ledger: Any, *, window: int = 500_000) -> Iterator[SessionRow]:
    """Every stored session event in ledger order, typed, read ``window`` ledger positions
    at a time (a million hands come with hundreds of thousands of buy-ins and cash-outs:
    they are parsed as the fold reaches them, not held together).

    Raises:
        MalformedEvent: a stored payload that does not parse (located at its stream).
    """
    con = ledger.connection
    last = con.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
    fixes = entry_corrections(ledger)
    early = _made_before(con, fixes)  # counted at their place, ahead of their position
    waiting = iter(early.values())
    ahead = next(waiting, None)
    for low in range(0, last, window):
        rows = con.execute(
            "SELECT position, stream, session, payload, seq FROM events WHERE position > $1"
            " AND position <= $2 AND hand_id IS NULL ORDER BY position",
            [low, low + window]).fetchall()
        for raw in rows:
            while ahead is not None and ahead.position < raw[0]:
                yield ahead
                ahead = next(waiting, None)
            if (raw[1], raw[4]) in early:
                continue
            row = _typed(*raw, fixes)
            if row is not None:
                yield row
    while ahead is not None:
        yield ahead
        ahead = next(waiting, None)


def _made_before(con: Any, fixes: Fixes) -> dict[tuple[str, int], SessionRow]:
    """The buy-ins that count before a hand stored ahead of them (``buyin --before``, as
    corrected by ``fixes``), ``{(stream, seq): row at its place}`` in the order of their
    places (:func:`placed`), for :func:`iter_session_rows` to yield each there."""
    amended = sorted(k for k, e in fixes.items() if e is not None and named_hand(e))
    raw = con.execute(
        "SELECT position, stream, session, payload, seq FROM events WHERE hand_id IS NULL"
        " AND type = 'buy_in' AND (json_extract_string(payload, '$.before') IS NOT NULL"
        " OR list_contains($1, stream || ':' || seq)) ORDER BY position",
        [[f"{stream}:{seq}" for stream, seq in amended]]).fetchall()
    keyed = [((r[1], r[4]), row) for r in raw if (row := _typed(*r, fixes)) is not None
             and named_hand(row.event) is not None]
    if not keyed:
        return {}
    starts = hand_starts(con, [(row.session, named_hand(row.event)) for _, row in keyed])
    moved = [(key, SessionRow(place(row.position, row.session, row.event, starts),
                              row.session, row.event)) for key, row in keyed]
    return dict(sorted(moved, key=lambda item: item[1].position))


#: ``{(session stream, seq): the entry as corrected, None when retracted}``.
Fixes = dict[tuple[str, int], Any]


def entry_corrections(ledger: Any, sessions: Sequence[str] | None = None) -> Fixes:
    """The book entries an ``entry_corrected`` event retracts or amends (the latest wins), of
    every session or only ``sessions``: ``{(stream, seq): replacement event or None}``.

    Raises:
        MalformedEvent: a stored correction that does not parse.
    """
    rows = ledger.connection.execute(
        "SELECT stream, payload FROM events WHERE type = 'entry_corrected'"
        " AND ($1 IS NULL OR list_contains($1, session)) ORDER BY position",
        [None if sessions is None else list(sessions)]).fetchall()
    return corrections_of(rows)


def corrections_of(rows: Iterable[tuple[str, str]]) -> Fixes:
    """The :data:`Fixes` of stored ``entry_corrected`` rows ``(stream, payload)`` in ledger
    order (from any reader of the events table or its Parquet export).

    Raises:
        MalformedEvent: a stored correction that does not parse.
    """
    out: Fixes = {}
    for stream, payload in rows:
        e = parse_event(payload)
        out[(stream, e.seq)] = None if e.replacement is None else parse_event(e.replacement)
    return out


def typed_rows(rows: Iterable[tuple[int, str, str | None, str, int]], fixes: Fixes
               ) -> Iterator[SessionRow]:
    """Stored session rows ``(position, stream, session, payload, seq)`` (from any reader of
    the events table or its Parquet export) as the books read them, in the order given: typed
    :class:`SessionRow`, the entries ``fixes`` retract left out, those it amends replaced.

    Raises:
        MalformedEvent: a payload that does not parse (located at its stream).
    """
    for raw in rows:
        row = _typed(*raw, fixes)
        if row is not None:
            yield row


def _typed(position: int, stream: str, session: str | None, payload: str, seq: int,
           fixes: Fixes) -> SessionRow | None:
    """The row as the books read it: its event, or the event a correction puts in its
    place (None: retracted)."""
    if (stream, seq) in fixes:
        event = fixes[(stream, seq)]
        return None if event is None else SessionRow(position, session or "", event, seq)
    try:
        event = parse_event(payload)
    except LedgerError as exc:
        raise exc.located(action=f"{stream} position {position}") from None
    return SessionRow(position, session or "", event, seq)


def session_ends(ledger: Any, sessions: Sequence[str] | None = None, *, after: int = 0
                 ) -> dict[str | None, int]:
    """``{session: last ledger position}`` over its session rows and its hands' rows (key
    None: hands of no session), for every session or only ``sessions``; only positions after
    ``after`` are read (a session without rows there has no entry)."""
    return dict(ledger.connection.execute(
        "SELECT session, max(position) FROM events"
        " WHERE position > $2 AND ($1 IS NULL OR list_contains($1, session)) GROUP BY session",
        [None if sessions is None else list(sessions), after]).fetchall())


def head(ledger: Any) -> int:
    """The ledger's last position (0 when empty)."""
    return int(ledger.connection.execute(
        "SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
