"""A hand's antes list checked against its seats and the antes it records as posted.

``stakes.antes`` is PHH's positional list (FORMATS.md §1): one entry per seat, in seat order,
read in reverse heads-up, or none. Every player antes what his seat's entry says, or all he
has (RULES.md §4.3); an ante only one seat's entry gives (the big blind's, the button's) is the
table's. A reader whose hands carry their forced bets as events (JSON lines) checks the two
agree: an entry per seat, and each player's posted ante (``forced_bet`` of kind ``ante``, before
the first card) what his entry gives, or less only when his forced bets took his whole stack.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ledger.formats.phh.base import blind_index


def antes_fault(events: Iterable[Any]) -> tuple[int, str] | None:
    """``(index, reason)`` of the first event of a hand's ``events`` (``hand_started`` first:
    index 0) whose antes do not fit its seats, or None when they do (see the module doc).
    Only the events up to the first card dealt are read."""
    stream = iter(events)
    started = next(stream)
    seats = started.seats
    antes = started.stakes.antes
    count = len(seats)
    if antes and len(antes) != count:
        return 0, (f"stakes.antes lists {len(antes)} entries for {count} seats: one per seat in "
                   "seat order, or none (FORMATS.md §1; every player antes: RULES.md §4.3)")
    posted: dict[str, int] = {}
    forced: dict[str, int] = {}
    first: dict[str, int] = {}
    for k, e in enumerate(stream, 1):
        if e.type != "forced_bet":
            if e.type == "cards_dealt":  # the forced bets before the cards: a few events
                break
            continue
        forced[e.player] = forced.get(e.player, 0) + e.amount
        if e.kind == "ante":
            posted[e.player] = posted.get(e.player, 0) + e.amount
            first.setdefault(e.player, k)
    for i, seat in enumerate(seats):
        player = seat.player
        due = antes[blind_index(i, count)] if antes else 0
        paid = posted.get(player, 0)
        at = first.get(player, 0)  # his ante's event, or hand_started's when he posts none
        if paid > due:
            gives = f"{due}" if due else "none"
            return at, (f"{player} posts an ante of {paid}, but stakes.antes gives {player}'s seat "
                        f"{gives} (RULES.md §4.3)")
        if paid < due and forced.get(player, 0) < seat.stack:
            posts = f"an ante of {paid}" if paid else "no ante"
            return at, (f"{player} posts {posts}, but stakes.antes gives {player}'s seat "
                        f"{due}: every player antes, all of the stack when that is less "
                        "(RULES.md §4.3)")
    return None
