"""Declaring high, low or swing (RULES.md §3.2–3.4).

``simultaneous`` (chips in hand): every live player declares, in any order, and the ledger
records the meaning. ``in_turn``: the last bettor or raiser of the final betting round declares
first, then clockwise; if that round was checked through, the first player to act in it
starts (RULES.md §3.3). A declaration out of turn, twice, by a folded player or in a
cards-speak hand is illegal.
"""

from __future__ import annotations

from engine import flow


def declare_queue(state) -> list[str]:  # noqa: ANN001 - HandState
    """Live players still to declare, in the order they must declare (in-turn method)."""
    aggressor, first = getattr(state, "last_round", (None, None))
    start = aggressor or first
    live = state.live()
    order = state.order
    if start is None or start not in order:
        start = next((p for p in order if p in live), order[0])
    i = order.index(start)
    ring = order[i:] + order[:i]
    return [p for p in ring if p in live and p not in state.declarations]


def declare(state, e) -> None:  # noqa: ANN001
    """Record ``e.player``'s declaration; when all have declared, move on (bet or showdown)."""
    d = state.started.options.declare
    if d is None:
        raise state._fail("this hand is cards speak: nobody declares")
    if state.phase != "declare":
        raise state._fail(f"no declaring in the {state.phase} phase: it follows the betting")
    if e.player not in state.stacks:
        raise state._fail(f"{e.player!r} is not seated")
    if e.player not in state.live():
        raise state._fail(f"{e.player} is out of the hand")
    if e.player in state.declarations:
        raise state._fail(f"{e.player} has already declared")
    if d.method == "in_turn":
        queue = declare_queue(state)
        if queue and queue[0] != e.player:
            raise state._fail(f"out of turn: {queue[0]} declares first, not {e.player}")
    state.declarations[e.player] = e.direction
    if all(p in state.declarations for p in state.live()):
        state.declare_done = True
        if d.bet_after_declare and state.street == len(state.game.streets) - 1:
            flow._begin_betting(state)
        else:
            state.phase = "showdown"
