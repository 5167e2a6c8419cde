"""What the streaming audit reads of the ledger before the hands: the session rows and where
each session ends (:class:`ledger.audit.stream.StreamAudit`).

Hands themselves are streamed and replayed by the caller (``cli``), which owns the replayer;
the ledger package does not import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ledger.audit.books import SessionRow
from ledger.model.errors import LedgerError
from ledger.model.events import parse_event


def session_rows(ledger: Any, *, sessions: Sequence[str] | None = None,
                 types: Sequence[str] | None = None, after: int = 0) -> list[SessionRow]:
    """Stored session events (rows of no hand) in ledger order, typed: all of them, or only
    those of ``sessions`` and/or of event ``types``, and after ledger position ``after``.

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
    return [row for raw in rows if (row := _typed(*raw, fixes)) is not None]


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
    for low in range(0, last, window):
        rows = con.execute(
            "SELECT position, stream, session, payload, seq FROM events WHERE position > $1"
            " AND position <= $2 AND hand_id IS NULL ORDER BY position",
            [low, low + window]).fetchall()
        for raw in rows:
            row = _typed(*raw, fixes)
            if row is not None:
                yield row


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
