"""Whether a hand's forced bets fit its seats by the rules: the antes and blinds its
``hand_started`` implies (RULES.md §4.2: the small blind immediately left of the button, the
big blind next; heads-up the button posts the small blind; §4.3 antes), who posts what and how
much, as ``hand start`` posts them (:func:`ledger.formats.phh.base.forced_bets`, the seats
taken from the button's left as the engine takes them).

The engine takes forced bets as the history records them (a site's dead or posted blind, a
blind posted out of position by a new player: README "Formats"), so a hand's forced bets are
not refused for where they were posted. A correction is held to more: a hand whose forced
bets fitted its seats (every hand started live, every PHH hand) may not be corrected into one
whose forced bets no longer do (its seats reordered, its button moved, a stack changed under
a blind posted short), which no table posts (:func:`check_still_fits`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction

_Bet = tuple[str, str, int]


def _posted(events: Sequence[Any]) -> Counter[_Bet]:
    """The forced bets of the hand ``events`` (its effective events), the bring-in aside (an
    action of the first round, RULES.md §4.1), as ``(player, kind, chips)``."""
    return Counter((e.player, e.kind, e.amount) for e in events
                   if e.type == "forced_bet" and e.kind != "bring_in")


def _implied(started: Any) -> Counter[_Bet]:
    """The forced bets the rules give the hand ``started`` begins, as :func:`_posted`."""
    from engine.games import game
    from ledger.formats.phh.base import forced_bets

    seats = list(started.seats)
    players = [s.player for s in seats]
    if not game(started.game).stud and started.button in players:  # from the button's left
        b = players.index(started.button)
        seats = seats[b + 1:] + seats[:b + 1]
    return Counter((f.player, f.kind, f.amount) for f in forced_bets(started.stakes, seats))


def fits(events: Sequence[Any]) -> bool:
    """Whether the forced bets of the hand ``events`` (effective events, ``hand_started``
    first) are those the rules give its seats, stakes and button (module doc)."""
    return _posted(events) == _implied(events[0])


def check_still_fits(before: Sequence[Any], after: Sequence[Any], doing: str) -> None:
    """Refuse a correction that makes the hand ``before`` (its effective events), whose forced
    bets fit its seats (:func:`fits`), the hand ``after`` whose forced bets do not. ``doing``
    leads the refusal (``"correction replace 1 (hand_started) '…'"``).

    Raises:
        IllegalAction: naming each forced bet the corrected hand has that the rules do not
            give it, what the rules post instead, and how to correct both at once.
    """
    fault = fit_fault(before, after)
    if fault is not None:
        raise IllegalAction(
            f"{doing}: {fault}; nothing written (correct the forced bets in the same "
            "correction, `--replace SEQ JSON` of each, or keep the seats, button and stacks "
            "they were posted from)")


def fit_fault(before: Sequence[Any], after: Sequence[Any]) -> str | None:
    """Why a correction making the hand ``before`` (its effective events) the hand ``after``
    is refused for its forced bets (:func:`check_still_fits`), None when it is not: ``"the
    corrected hand's forced bets no longer fit its seats: with the button on Ann, the rules
    post Ann's small blind 1, which the corrected hand leaves out (RULES.md §4.2: …; §4.3
    antes)"``."""
    if not before or not after or before[0].type != "hand_started" or not fits(before):
        return None
    posted, implied = _posted(after), _implied(after[0])
    if posted == implied:
        return None
    started = after[0]
    stray = _said(posted - implied)
    due = _said(implied - posted)
    where = f"with the button on {started.button}" if started.button else "in seat order"
    if due and stray:
        said = f"the rules post {due}, not {stray}"
    elif due:
        said = f"the rules post {due}, which the corrected hand leaves out"
    else:
        said = f"the rules post no {stray}"
    return (f"the corrected hand's forced bets no longer fit its seats: {where}, {said} "
            "(RULES.md §4.2: the small blind sits immediately left of the button, the big "
            "blind next; §4.3 antes)")


def _said(bets: Counter[_Bet]) -> str:
    """``Bob's small blind 1, Cy's big blind 2`` (seat order of the counter)."""
    return ", ".join(f"{p}'s {k.replace('_', ' ')} {a}" + (f" ×{n}" if n > 1 else "")
                     for (p, k, a), n in bets.items())
