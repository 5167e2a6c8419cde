"""The chips still in the middle once the table has paid some out (RULES.md §1.2, §1.4; README,
"Net has one meaning everywhere"): a chip paid to a player sits in his stack and is no longer
in the pot, so at every step the stacks and the pot add up to the chips on the table.

Pure functions over the rules' pots and the recorded payouts; chips are ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

__all__ = ["InPlay", "back_unrecorded", "in_play", "paid_to_each", "pots_left"]


class InPlay(NamedTuple):
    """The chips of a hand in play once the table has paid some out (what ``state`` shows;
    :func:`in_play`), in chips: ``stacks`` each seated player's stack with what the payouts
    pushed to him (in his stack, out of the pots) and his uncalled chips back once the
    betting is over (:func:`back_unrecorded`), ``left`` the chips left in each of the
    rules' pots (main pot first), ``so_far`` each payee's payouts so far in the order first
    paid (empty before the first) and ``paid`` their sum, ``to_pay`` the chips ``end`` holds
    the payouts to (the pots and every uncalled bet returned, RULES.md §1.4), ``in_pots`` the
    pots' part of it and ``returned`` each uncalled bet returned (none of 0)."""

    stacks: dict[str, int]
    left: list[int]
    so_far: dict[str, int]
    paid: int
    to_pay: int
    in_pots: int
    returned: dict[str, int]


def in_play(state: Any, result: Any) -> InPlay:
    """:class:`InPlay` of ``state`` (an :class:`engine.hand.HandState` in play) and
    ``result`` (the rules' :class:`engine.settle.HandResult` of it): the payouts recorded so
    far (``pay``, ``returned``) against the pots and the uncalled bets (RULES.md §1.2, §1.4)."""
    from replay.payout_rules import paid_by_player

    paid = paid_to_each(state.players, state.payouts)
    so_far = paid_by_player(state.payouts)
    returned = {p: c for p, c in result.returned.items() if c}
    total = state.pot_total()
    back = back_unrecorded(state, returned, state.payouts, total - sum(paid.values()))
    return InPlay(stacks={p: state.stacks[p] + paid[p] + back.get(p, 0) for p in state.players},
                  left=pots_left([pot.amount for pot in result.pots], state.payouts),
                  so_far=so_far, paid=sum(so_far.values()), to_pay=total,
                  in_pots=total - sum(returned.values()), returned=returned)


def back_unrecorded(state: Any, returned: dict[str, int], payouts: Sequence[Any],
                    in_pot: int) -> dict[str, int]:
    """``{player: chips}``: of a hand in play (``state.status`` open), the uncalled chips each
    player has back once the betting is over (``returned``, RULES.md §1.4) that no recorded
    ``returned`` payout among ``payouts`` gave him yet: in his stack and out of the pot, as
    the table has them (``end`` still holds the payouts to them: ``to_pay``); none beyond the
    ``in_pot`` chips the recorded payouts leave in the middle (a table that paid them out
    with the pot has given them). Empty otherwise."""
    if state.status != "open" or not returned or in_pot <= 0:
        return {}
    back: dict[str, int] = {}
    for p, chips in returned.items():
        chips -= sum(e.amount for e in payouts if e.returned and e.player == p)
        chips = min(chips, in_pot)
        if chips > 0:
            back[p], in_pot = chips, in_pot - chips
    return back


def paid_to_each(players: Iterable[str], payouts: Iterable[Any]) -> dict[str, int]:
    """``{player: chips}``: what the recorded payouts (``RecordedPayout`` events, pot shares
    and returned bets alike, :func:`replay.payout_rules.paid_by_player`) have pushed to each
    of ``players`` so far (0: nothing), a payee not among them after them."""
    from replay.payout_rules import paid_by_player

    return {**dict.fromkeys(players, 0), **paid_by_player(payouts)}


def pots_left(amounts: Sequence[int], payouts: Iterable[Any]) -> list[int]:
    """The chips left in each pot (``amounts``: the rules' pots, main pot first) once
    ``payouts`` are paid out of them: a payout naming its pot comes out of that pot, any
    other pot share out of the main pot first, then each side pot in turn; a returned bet
    (``returned=True``) comes out of the uncalled chips, not a pot, as does a pot share
    beyond every pot (a table that pays the uncalled bet with the pot). Never
    below 0 (a payout beyond the chips in the middle is the rules' comparison's finding,
    :mod:`replay.fold`, not this one's)."""
    left = list(amounts)
    loose = 0
    for payout in payouts:
        if payout.returned:
            continue
        index = getattr(payout, "pot", None)
        if index is not None and 0 <= index < len(left):
            take = min(left[index], payout.amount)
            left[index] -= take
            loose += payout.amount - take
        else:
            loose += payout.amount
    for k, chips in enumerate(left):
        take = min(chips, loose)
        left[k] -= take
        loose -= take
    return left
