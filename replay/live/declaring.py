"""What a declaration recorded live is refused for beyond the engine's rule, with the way
forward (RULES.md §3): a second declaration, or giving up the hand after declaring, names
what the player declared, at which seq, and how to change it (``undo`` when it is the last
action, else ``correct HAND --replace SEQ``); a declaration in a hand started without
declare options (high only, low only or cards speak high-low, by its game) names how to make
it a declare hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model.shell import shell_arg
from replay.amendments import numbered_events


def declare_rules(state: HandState, event: Any, events: Sequence[Any]) -> None:
    """Refuse ``event`` (an action about to be applied to ``state``; ``events``: the hand's
    stream as stored) when it is a declaration in a hand started without declare options, a
    second declaration by its player, or a fold in the declare phase by a player who has
    declared (he may give up his hand instead of declaring, not after, RULES.md §3).

    Raises:
        IllegalAction: ``"this hand is high only (F7S, started without declare options):
            nobody declares; to make it a declare hand …"`` (the game's ranking:
            :attr:`engine.games.Game.ranking_said`), ``"Ann has already declared high (at
            35): to change it, …"``.
    """
    kind = event.type
    if kind == "declaration" and state.started.options.declare is None:
        hand, game = state.hand, state.game
        raise IllegalAction(
            f"this hand is {game.ranking_said} ({game.code}, started without declare options): "
            "nobody declares; to make it a declare hand, "
            f"`handledger correct {shell_arg(hand)} --replace 1 JSON --reason … --by …`, JSON the "
            f"\"event\" of `handledger export {shell_arg(hand)}`'s first line (its hand_started) "
            "with "
            "options.declare set, e.g. \"declare\": {\"method\": \"simultaneous\"}; or start "
            "the next hand with `hand start --declare-options method=simultaneous` (RULES.md "
            "§3)")
    if kind not in ("declaration", "fold") or event.player not in state.declarations:
        return
    if kind == "fold" and state.phase != "declare":
        return
    raise IllegalAction(_declared(state, event, events))


def _declared(state: HandState, event: Any, events: Sequence[Any]) -> str:
    """Why ``event`` is refused: its player has declared; what he declared, at which seq,
    and the ``undo`` or ``correct`` that changes it."""
    p, hand = event.player, state.hand
    seq = 0
    for numbered in numbered_events(events)[0]:
        e = numbered.event
        if e.type == "declaration" and e.player == p:
            seq = numbered.seq
    declared = state.declarations[p]
    if event.type == "fold":
        why, action = "to give up the hand instead", f"{p} f"
    else:
        word = event.direction if event.direction != declared else "DIRECTION"
        why, action = "to change it", f"{p} dcl {word}"
    last = events[-1] if events else None
    undo = ""
    if last is not None and last.type == "declaration" and last.player == p:
        undo = f"`handledger undo {shell_arg(hand)}` takes it back (the last action), or "
    return (f"{p} has already declared {declared} (at {seq}): {why}, {undo}`handledger "
            f"correct {shell_arg(hand)} --replace {shell_arg(seq)} {shell_arg(action)} --reason … "
            "--by …`")
