"""Where a PokerNow hand's players sit and what its stakes are (FORMATS.md §2).

:func:`rotation` orders the seats of ``Player stacks`` from the seat left of the button round to
the button; :func:`stakes` reads the blinds, antes and minimum bet from the hand's posts.
Conventions: :mod:`ledger.formats.pokernow.log` ("Seats", "Forced bets").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games import game
from ledger.formats.pokernow.model import HandBlock
from ledger.model.events import Stakes

#: PokerNow post wording → ForcedBet kind. Missing small blind is dead money, a missed big blind
#: is live but out of position; a bomb-pot bet is an ante (dead, everyone).
POST_KINDS = {
    "small blind": "small_blind",
    "big blind": "big_blind",
    "ante": "ante",
    "straddle": "straddle",
    "missing small blind": "dead_blind",
    "missed big blind": "posted_blind",
}


def rotation(block: HandBlock, ids: list[str]
             ) -> tuple[str | None, list[str], dict[str, Any], str | None]:
    """``(button for HandStarted, seat order starting left of the button and ending on it,
    facts for HandStarted.source, a problem or None)``. ``ids``: the seated players in seat
    order. With no dealer in the seat list (``dead button`` or a dealer who left) the button is
    ``None`` and the seats turn as if the player before the small blind had it (heads-up: the
    small blind; with no small blind, the player before the big blind)."""
    dealer = block.start.parsed.player
    posts = [(r.parsed.what, r.parsed.player) for r in block.body if r.parsed.kind == "post"]
    problem = None
    if dealer is not None and dealer not in ids:
        problem = "the dealer is not in the seat list; seating from the blinds"
    facts: dict[str, Any] = {"dealer": dealer}
    if dealer in ids:
        anchor, button = dealer, dealer
    else:
        sb = next((p for w, p in posts if w == "small blind" and p in ids), None)
        bb = next((p for w, p in posts if w == "big blind" and p in ids), None)
        if len(ids) == 2 and (sb or bb):
            anchor = sb or next(p for p in ids if p != bb)
        elif sb or bb:
            anchor = ids[ids.index(sb or bb) - 1]
        else:
            anchor = ids[-1]
        button = None
        facts.update(dead_button=dealer is None, inferred_button=anchor)
    i = ids.index(anchor)
    return button, ids[i + 1 :] + ids[: i + 1], facts, problem


def stakes(block: HandBlock, code: str, order: list[str], chips: Callable[[str | None], int]
           ) -> Stakes:
    """The hand's stakes, seats in ``order``: each player's blinds (small, big, straddle) and
    antes as posted; ``min_bet`` the big blind posted in full, else the table's level
    (``HandBlock.level_bb``: the last blind change or full big blind before the hand), else the
    biggest short big blind. ``chips``: amount text → chips (0 when unreadable)."""
    blinds, antes = dict.fromkeys(order, 0), dict.fromkeys(order, 0)
    bb_full, bb_any = [], []
    for row in block.body:
        line = row.parsed
        if line.kind not in ("post", "bomb") or line.player not in blinds:
            continue
        kind = POST_KINDS[line.what or ""] if line.kind == "post" else "ante"
        amount = chips(line.amount)
        if kind == "ante":
            antes[line.player] += amount
        elif kind in ("small_blind", "big_blind", "straddle"):
            blinds[line.player] += amount
        if kind in ("big_blind", "posted_blind"):
            (bb_any if line.all_in else bb_full).append(amount)
    level = chips(block.level_bb) if block.level_bb else None
    min_bet = next(iter(bb_full), level if level is not None else max(bb_any, default=0))
    return Stakes(
        betting=game(code).betting,
        antes=[antes[p] for p in order] if any(antes.values()) else [],
        blinds_or_straddles=[blinds[p] for p in order],
        min_bet=min_bet,
    )
