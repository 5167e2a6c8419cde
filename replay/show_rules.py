"""A shown hand stays shown (RULES.md §1.5, §3.3; FORMATS.md §1 ``sm``): a player shows his
hand once, as a street's cards are dealt him once, and does not muck it after. Live entry
(``act``) and a correction or what-if (a user's entry too) refuse a show or muck that breaks
it; a history read from a file is taken as it is (real PHH and site files show on each
street, ``sm ????``, a stud hand shown on sixth and seventh street).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.state import HandState


def shown_stays(state: HandState, event: Any, before: Sequence[Any] = ()) -> None:
    """Refuse ``event`` at ``state`` when it is a second show by a player who has shown every
    card he holds (a show before his last card is dealt face down, ``??``, may be followed
    by one that shows it), or his muck after a show (its ``sm`` alone would give up the pots
    the cards shown win, RULES.md §1.5). ``before``: the hand's events in force before
    ``event``, to name the cards as shown (:func:`shown_already`).

    Raises:
        IllegalAction: ``Ann has shown AsAh already; a shown hand stays shown`` (a muck),
            ``Ann has shown AsAh already`` (a show).
    """
    if event.type not in ("reveal", "muck") or event.player not in state.cards.shown:
        return
    if event.type == "reveal" and "??" not in state.cards.hole[event.player]:
        raise IllegalAction(f"{shown_already(state, event.player, before)} already")
    if event.type == "muck":
        raise IllegalAction(f"{shown_already(state, event.player, before)} already; a "
                            "shown hand stays shown")


def shown_already(state: HandState, player: str, before: Sequence[Any]) -> str:
    """``Ann has shown AcAdKdQs3s``: the cards ``player`` showed, in the order his last show
    of them in ``before`` (the hand's events in force) names them; his hole cards in deal
    order when that show named none (``sm -``) or left a card unseen."""
    cards = state.cards.hole[player]
    for e in reversed(before):
        if e.type == "reveal" and e.player == player:
            if e.cards and "??" not in e.cards:
                cards = e.cards
            break
    return f"{player} has shown {''.join(cards)}"


def shows_refused(events: Sequence[Any]) -> list[tuple[Any, str]]:
    """Each show or muck of the hand ``events`` (its events in force, ``hand_started``
    first) that :func:`shown_stays` refuses, with the refusal's words, in the hand's order.

    Raises:
        IllegalAction: the hand does not replay (the engine's refusal).
    """
    state = HandState.start(events[0])
    out = []
    for k, e in enumerate(events[1:], 1):
        if e.type not in ("reveal", "muck"):
            state.apply(e)
            continue
        try:
            shown_stays(state, e, events[:k])
        except IllegalAction as exc:
            out.append((e, exc.reason))
        state.apply(e)
    return out


def shown_kept(before: Sequence[Any], after: Sequence[Any]) -> tuple[Any, str] | None:
    """The first show or muck a correction makes :func:`shown_stays` refuse: in the hand as
    corrected (``after``, its events in force) and not so refused in the hand before it
    (``before``; its events are the same objects where the correction kept them, so an
    event it puts in is always new). What a file recorded stays (:func:`shows_refused` of
    ``before``); a hand that did not replay before has every event kept held to nothing.
    None when there is none."""
    try:
        was = {id(e) for e, _ in shows_refused(before)}
    except IllegalAction:
        was = {id(e) for e in before}
    return next(((e, why) for e, why in shows_refused(after) if id(e) not in was), None)
