"""Declaring high, low or swing (RULES.md §3.2–3.4).

``simultaneous`` (chips in hand): every live player declares, in any order, and the ledger
records the meaning. ``in_turn``: the last bettor or raiser of the final betting round declares
first, then clockwise; if that round was checked through, the first player to act in it
starts (RULES.md §3.3). A declaration out of turn, twice, by a folded player or in a
cards-speak hand is illegal. Instead of declaring a player may give up his hand
(:func:`concede`, a fold): he is out of every pot, his chips stay in (§1.5, §3.4), and the
in-turn order skips him. Neither function changes the phase: each says when everyone left
has declared, and :mod:`engine.flow` moves the hand on (to the last betting round or the
showdown, RULES.md §3.4; one player left takes the pots he is eligible for as a fold-win).
"""

from __future__ import annotations

from engine.hand import HandData
from ledger.model import events as ev


def declare_queue(state: HandData) -> list[str]:
    """Live players still to declare, in the order they must declare (in-turn method)."""
    aggressor, first = state.last_round
    start = aggressor or first
    live = state.live()
    order = state.order
    if start is None or start not in order:
        start = next((p for p in order if p in live), order[0])
    i = order.index(start)
    ring = order[i:] + order[:i]
    return [p for p in ring if p in live and p not in state.declarations]


def still_to_declare(state: HandData) -> list[str]:
    """The live players who have not declared yet (RULES.md §3.2-3.4): in the order they must
    under the in-turn method (:func:`declare_queue`), else in seat order."""
    d = state.started.options.declare
    if d is not None and d.method == "in_turn":
        return declare_queue(state)
    live = state.live()
    return [p for p in state.order if p in live and p not in state.declarations]


def declare(state: HandData, e: ev.Declaration) -> bool:
    """Record ``e.player``'s declaration. True when every live player has declared."""
    d = state.started.options.declare
    if d is None:
        raise state.fail(f"this hand is {state.game.ranking_said} ({state.game.code}, started "
                         "without declare options): nobody declares")
    if e.player in state.declarations:
        raise state.fail(f"{e.player} has already declared {state.declarations[e.player]}")
    if state.phase != "declare":
        raise state.fail(f"no declaring in the {state.phase_said} phase: it follows the betting")
    if e.player not in state.stacks:
        raise state.fail(f"{e.player!r} is not seated")
    if e.player not in state.live():
        raise state.fail(f"{e.player} is out of the hand")
    if d.method == "in_turn":
        queue = declare_queue(state)
        if queue and queue[0] != e.player:
            raise state.fail(f"out of turn: {queue[0]} declares next, not {e.player}")
    state.declarations[e.player] = e.direction
    return all(p in state.declarations for p in state.live())


def concede(state: HandData, e: ev.Fold) -> bool:
    """``e.player`` gives up his hand in the declare phase instead of declaring (a fold): he
    is out of every pot, his chips stay in (RULES.md §1.5, §3.4). Under the in-turn method
    he does so in his turn to declare. True when every player left has declared, or one
    player is left.

    Raises:
        IllegalAction: he is not seated, already out of the hand, has declared (the
            declaration stands), or it is not his turn to declare.
    """
    p = e.player
    if p not in state.stacks:
        raise state.fail(f"{p!r} is not seated")
    if p not in state.live():
        raise state.fail(f"{p} is out of the hand")
    if p in state.declarations:
        raise state.fail(f"{p} has already declared {state.declarations[p]}")
    d = state.started.options.declare
    if d is not None and d.method == "in_turn":
        queue = declare_queue(state)
        if queue and queue[0] != p:
            raise state.fail(f"out of turn: {queue[0]} declares next, not {p}")
    state.folded.add(p)
    live = state.live()
    return len(live) <= 1 or all(q in state.declarations for q in live)
