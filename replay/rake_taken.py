"""The rake a session's table took, read from its hands' events (not the derived tables,
which a live hand recorded since leaves behind): what a cash-out's bound on the chips still
on the table leaves out (replay/sessions/entries.py)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction


def rake_taken(ledger: Any, session: str) -> int:
    """The chips the table took as rake from the pots of ``session``'s hands: what the replay
    names a ``rake`` (:mod:`replay.rake`: a ``recorded_rake`` at the table, a file's rake or
    rake rule), summed as :func:`ledger.audit.player_balances.rake_taken` sums the derived tables.
    Only hands with a rake anywhere in their rows are replayed (a query over the session's
    rows); a hand the rules refuse takes none.
    """
    return sum(rake for _, rake in rake_by_hand(ledger, session))


def rake_by_hand(ledger: Any, session: str) -> list[tuple[int, int]]:
    """``[(position, rake)]``: for each hand of ``session`` that took a rake (as
    :func:`rake_taken` counts it), the ledger position of its last row and the chips taken,
    so that a cash-out is held to the rake of the hands stored before it."""
    return rake_by_session(ledger, [session]).get(session, [])


def rake_by_session(ledger: Any, sessions: list[str]) -> dict[str, list[tuple[int, int]]]:
    """:func:`rake_by_hand` of each of ``sessions`` at once (one query for them all; a
    session whose hands took no rake is left out)."""
    from ledger.audit.rake_count import counted_rake
    from replay.fold import replay_events

    hands = ledger.query(
        "SELECT DISTINCT session, hand_id FROM events WHERE list_contains($1, session) AND"
        " hand_id IS NOT NULL AND (type = 'recorded_rake' OR (type IN ('hand_started',"
        " 'correction') AND payload LIKE '%rake%')) ORDER BY session, hand_id", [sessions])
    taken: dict[str, list[tuple[int, int]]] = {}
    for session, hand in hands:
        rows = ledger.read(hand)
        try:
            replayed = replay_events([r.event for r in rows], session=session)
        except IllegalAction:
            continue
        rake = counted_rake(replayed.discrepancies)
        if rake:
            taken.setdefault(session, []).append((max(r.position for r in rows), rake))
    return taken
