"""A player's starting stack in a hand against the session's books, as the audit's stack
continuity reads them (RULES.md §1.1): the stack the latest hand before it that seats him left
him plus what he bought since (after a cash-out, only what he bought after it). ``hand start``
warns of a seat that does not follow (:mod:`replay.live.continuity`), and ``buyin`` refused
while a hand is in play names the rebuy its start already counts. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

from ledger.model import events as ev
from ledger.model.errors import LedgerError

#: How many of a session's latest hands :func:`start_against_books` looks back through.
LOOK_BACK = 200


class StartAgainstBooks(NamedTuple):
    """``player`` (his name in the hand) starts ``hand`` with ``stack`` chips where the books
    give him ``expected``: his stack after ``previous`` (None: no hand before it seats him)
    plus ``bought`` chips since (``cashed``: he cashed out since, ``expected`` being only what
    he bought after it). Chips."""

    hand: str
    player: str
    stack: int
    expected: int
    previous: str | None
    bought: int
    cashed: bool

    def basis(self) -> str:
        """The books' side in words: ``99 after hand 1 with nothing bought since``, ``149 by
        the books (99 after hand 1 and 50 bought since)``, ``100 by the books (Ann cashed out
        after hand 1 and bought 100 since)``, ``100, Ann's buy-ins in the session``."""
        if self.previous is None:
            return f"{self.expected}, {self.player}'s buy-ins in the session"
        if self.cashed:
            return (f"{self.expected} by the books ({self.player} cashed out after hand "
                    f"{self.previous} and bought {self.bought} since)")
        left = self.expected - self.bought
        if self.bought:
            return (f"{self.expected} by the books ({left} after hand {self.previous} and "
                    f"{self.bought} bought since)")
        return f"{left} after hand {self.previous} with nothing bought since"


def start_against_books(ledger: Any, session: str, hand: str, names: Collection[str]
                        ) -> StartAgainstBooks | None:
    """The start of the player known by ``names`` (his name and its aliases) in ``hand`` of
    ``session`` against the books (:class:`StartAgainstBooks`), the hands before it started
    latest first, as the audit's stack continuity orders them (a voided one counts for
    nothing); None when ``hand`` does not seat him, his stack is not known (the hand before
    it is in play or recorded no payouts), or he cashed out since and bought nothing after."""
    from replay.fold import replay_events

    try:
        started = replay_events([r.event for r in ledger.read(hand)]).result.starting
    except LedgerError:
        return None
    seat = next((p for p in started if p in names), None)
    if seat is None:
        return None
    (first,), = ledger.query("SELECT min(position) FROM events WHERE hand_id = $1", [hand])
    book = book_entries(ledger, session)
    earlier = ledger.query(
        "SELECT hand_id, min(position) FROM events WHERE session = $1 AND hand_id IS NOT NULL"
        " AND hand_id <> $2 GROUP BY hand_id HAVING min(position) < $3"
        " ORDER BY min(position) DESC LIMIT $4", [session, hand, first, LOOK_BACK])
    for hand_id, position in earlier:
        try:
            replay = replay_events([r.event for r in ledger.read(hand_id)])
        except LedgerError:
            continue
        result = replay.result
        if result.status == "voided":
            continue
        there = next((n for n in result.starting if n in names), None)
        if there is None:
            continue
        if result.status == "open" or replay.paid is None:
            return None
        since = bought_since(book, names, position)
        if since is None:
            return None
        left = result.starting[there] - result.contributions.get(there, 0) + replay.paid.get(
            there, 0)
        bought, cashed = since
        return StartAgainstBooks(hand, seat, started[seat], bought if cashed else left + bought,
                                 hand_id, bought, cashed)
    since = bought_since(book, names, -1)
    if since is None:
        return None
    bought, cashed = since
    return StartAgainstBooks(hand, seat, started[seat], bought, None, bought, cashed)


def book_entries(ledger: Any, session: str) -> list[tuple[int, Any]]:
    """``session``'s buy-ins and cash-outs as the books read them, ``(place, event)`` in the
    order of their places: a retracted entry left out, an amended one as amended last, at its
    place among the hands (a buy-in made before a hand just before it,
    :mod:`ledger.audit.placing`), as the audit's stack continuity reads them."""
    from ledger.audit.placing import hand_starts, named_hand, place

    rows = ledger.read(f"session:{session}")
    fixes = {r.event.seq: r.event.replacement for r in rows if r.type == "entry_corrected"}
    out = []
    for r in rows:
        if r.type not in ("buy_in", "cash_out"):
            continue
        e = r.event
        if r.seq in fixes:
            if fixes[r.seq] is None:
                continue
            e = ev.parse_event(fixes[r.seq])
        out.append((r.position, e))
    named = [(session, h) for _, e in out if (h := named_hand(e)) is not None]
    if not named:
        return out
    starts = hand_starts(ledger.connection, named)
    return sorted(((place(p, session, e, starts), e) for p, e in out), key=lambda pe: pe[0])


def bought_since(book: list[tuple[int, Any]], names: Collection[str], position: int
                  ) -> tuple[int, bool] | None:
    """The chips a player (any of ``names``) bought after ledger ``position`` (where his
    previous hand started: the audit counts an entry made during a hand as bought after it),
    and whether he cashed out since, the chips then those bought after his last cash-out
    (it takes his stack off the table, RULES.md §1.1); None when he cashed out since and
    bought nothing after. ``book``: :func:`book_entries`."""
    bought, cashed = 0, False
    for pos, e in book:
        if pos <= position or e.player not in names:
            continue
        if e.type == "cash_out":
            bought, cashed = 0, True
        else:
            bought += e.chips
    if cashed and not bought:
        return None
    return bought, cashed
