"""Seats of an imported hand that a session's books never bought (RULES.md §1.1).

``hand start --session`` refuses a player with no buy-in in the session's books (README, "A
session's hand seats only players in its books"). A file's hand comes as its table played
it, so ``import --session S`` stores it all the same, but a player it seats with chips that
no line of S's books bought is named in a ``warning:`` line of the hand that first seats
him (:func:`unbought_seats`): ``settle`` would bill him for chips nobody bought, and the
audit reports each as ``stack_continuity``. A session with no buy-in at all (opened for what
its chip is worth, its hands all from files) has no books to hold them to: no warning. A
file that carries S's book (JSON lines) is held to the books as the whole file leaves them;
a PokerNow log has its own warning (:func:`replay.ingest.pnsplit.unbought_stacks`).
"""

from __future__ import annotations

from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import StoredFinding


class FirstSeats:
    """The hands a file wrote into sessions, in file order: for each session, each player's
    first hand there of the file (``(hand id, file line)``), for :func:`unbought_seats`."""

    def __init__(self) -> None:
        self.first: dict[str, dict[str, tuple[str, int | None]]] = {}

    def add(self, batch: Batch) -> None:
        """Note the seats of ``batch``, a hand the file wrote (its first event the
        ``hand_started``); a hand of no session is left out."""
        if batch.session is None or not batch.events or batch.hand_id is None:
            return
        seen = self.first.setdefault(batch.session, {})
        for seat in getattr(batch.events[0], "seats", ()):
            if seat.stack and seat.player not in seen:
                seen[seat.player] = (batch.hand_id, batch.line)


def unbought_seats(ledger: Any, seats: FirstSeats, *, file: str, stored: int
                   ) -> list[StoredFinding]:
    """A finding (a ``warning:`` line) per hand of the file that first seats players a
    session the ledger has opened does not hold in its books: no buy-in, cash-out or payment
    there, under their name or an alias, after the file is written, and no seat in a hand of
    it stored before the file (``stored``: the ledger's head then). ``"p1, p2 have no buy-in
    in session r2: ..."``, in file order; none for a session not opened, or with no buy-in
    at all (no books: a session opened for its chip's worth, whose hands come from files)."""
    from replay.sessions.state import in_books, series_names

    found: list[StoredFinding] = []
    names: dict[str, str] | None = None  # the series' aliases, read once (none written here)
    states = _session_states(ledger, list(seats.first))
    for session, first in seats.first.items():
        state = states[session]
        if not state.opened or not state.chips_in:  # no books: a session of no buy-ins
            continue
        before = _seated_before(ledger, session, stored) if stored else set()
        if names is None:
            names = series_names(ledger)
        known = in_books(ledger, session, state, seated=before, names=names)
        if not (missing := [p for p in first if p not in known]):
            continue
        by_hand: dict[tuple[str, int | None], list[str]] = {}
        for player in missing:
            by_hand.setdefault(first[player], []).append(player)
        for (hand, line), players in by_hand.items():
            verb = "has" if len(players) == 1 else "have"
            found.append(StoredFinding(
                f"{', '.join(players)} {verb} no buy-in in session {session}: settle would "
                "bill chips nobody bought (RULES.md §1.1; `hand start` refuses such a seat)",
                file=file, line=line, hand=hand))
    return found


def _session_states(ledger: Any, sessions: list[str]) -> dict[str, Any]:
    """:func:`replay.sessions.state.session_state` of each of ``sessions``, their streams
    read in one query (a read a session scanned every row: quadratic in a large file's
    sessions); a session with no stream is not opened."""
    from ledger.model.events import parse_stored
    from replay.sessions.state import SessionState, fold_rows

    rows: dict[str, list[tuple[int, Any]]] = {s: [] for s in sessions}
    if sessions:
        for session, seq, kind, payload in ledger.query(
                "SELECT session, seq, type, payload FROM events WHERE list_contains($1,"
                " session) AND stream = 'session:' || session ORDER BY session, seq",
                [sessions]):
            rows[session].append((seq, parse_stored(kind, payload)))
    return {s: fold_rows(r) if r else SessionState() for s, r in rows.items()}


def _seated_before(ledger: Any, session: str, stored: int) -> set[str]:
    """The players seated in a hand of ``session`` stored at or before position ``stored``."""
    rows = ledger.query(
        "SELECT DISTINCT UNNEST(CAST(json_extract_string(payload, '$.seats[*].player')"
        " AS VARCHAR[])) FROM events WHERE type = 'hand_started' AND session = ?"
        " AND position <= ?", [session, stored])
    return {r[0] for r in rows}
