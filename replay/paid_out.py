"""The chips still in the middle once the table has paid some out (RULES.md §1.2, §1.4; README,
"Net has one meaning everywhere"): a chip paid to a player sits in his stack and is no longer
in the pot, so at every step the stacks and the pot add up to the chips on the table.

Pure functions over the rules' pots and the recorded payouts; chips are ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["paid_to_each", "pots_left"]


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
