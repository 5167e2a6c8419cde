"""Where a book entry counts among its session's hands: the one rule every fold of the books
follows (the audit's :class:`ledger.audit.books.SeriesFold`, the warning at ``hand start``).

Table stakes (RULES.md §1.1): chips come and go only between hands, so an entry counts between
the hands stored before it and those stored after it, at its ledger position. A buy-in (rebuy,
top-up) recorded with ``before`` (``handledger buyin S P CHIPS --before HAND``: one forgotten at
the table, recorded later) counts just before ``HAND`` of its session starts instead: its place
is one below the position of that hand's first row, and never later than its own position. A
buy-in without ``before`` (every older ledger's) and a ``before`` naming no hand of the session
count at their own position. Positions are ints; a place shared with a row stored there counts
after that row (a stable sort by place keeps ledger order between equal places).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: ``{(session, hand): ledger position of the hand's first row}``.
Starts = Mapping[tuple[str, str], int]


def named_hand(event: Any) -> str | None:
    """The hand a book entry was made before (a buy-in's ``before``), None for any other
    entry or a buy-in counted at its own place."""
    return getattr(event, "before", None) if event.type == "buy_in" else None


def place(position: int, session: str | None, event: Any, starts: Starts) -> int:
    """The ledger position at which ``event``, stored at ``position`` in ``session``'s stream,
    counts among the hands (see the module doc; ``starts``: :func:`hand_starts` of the hands
    named)."""
    hand = named_hand(event)
    return position if hand is None else place_before(position, session, hand, starts)


def place_before(position: int, session: str | None, hand: str, starts: Starts) -> int:
    """Where an entry stored at ``position`` in ``session``'s stream and made before ``hand``
    counts: one below that hand's first row (``starts``), never later than ``position``; at
    ``position`` when ``hand`` is no hand of the session (or the entry of no session)."""
    start = None if session is None else starts.get((session, hand))
    return position if start is None else min(position, start - 1)


def hand_starts(con: Any, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """:data:`Starts` of the hands ``pairs`` name (``(session, hand)``), read from the events
    table on the DuckDB connection ``con``: each hand's first row, when its ``hand_started``
    names that session (a hand of another session, or none, is left out)."""
    wanted = sorted(set(pairs))
    if not wanted:
        return {}
    rows = con.execute(
        "SELECT session, hand_id, min(position) FROM events WHERE list_contains($1, hand_id)"
        " GROUP BY session, hand_id HAVING bool_or(type = 'hand_started')",
        [sorted({h for _, h in wanted})]).fetchall()
    asked = set(wanted)
    return {(s, h): p for s, h, p in rows if (s, h) in asked}
