"""Reading hands back from the ledger for the commands."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ledger.errors import NotFound


def hand_streams(ledger: Any, only: Sequence[str] = ()) -> Iterator[tuple[str, str | None, list]]:
    """``(hand id, session, events)`` of every hand in ledger order (or only those named).

    Raises:
        NotFound: a named hand is not in the ledger.
    """
    if only:
        for hand in only:
            events, session = load_hand(ledger, hand)
            yield hand, session, events
        return
    groups: dict[str, list] = {}
    sessions: dict[str, str | None] = {}
    for row in ledger.stored():
        if row.hand_id is None:
            continue
        groups.setdefault(row.hand_id, []).append(row.event)
        sessions.setdefault(row.hand_id, row.session)
    for hand, events in groups.items():
        yield hand, sessions[hand], events


def load_hand(ledger: Any, hand: str) -> tuple[list, str | None]:
    """The stored events of one hand and its session.

    Raises:
        NotFound: no such hand.
    """
    rows = ledger.read(hand)
    if not rows or rows[0].hand_id is None:
        raise NotFound(f"no hand {hand!r} in the ledger", hand=hand)
    return [r.event for r in rows], rows[0].session
