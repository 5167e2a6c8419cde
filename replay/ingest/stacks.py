"""A PHH hand's ``finishing_stacks`` beside its ``winnings``: checked, never ignored.

FORMATS.md §1 gives ``winnings`` as what each player collected: when a file gives them, they
are what the table paid (the hand's payouts, with the uncalled bets they leave out returned:
:mod:`replay.phh_returns`). ``finishing_stacks`` then say again where that left each player:
each stack less what he put in, plus what he was paid. A file whose finishing stacks are not
those is stored as its winnings pay it, with a ``warning:`` line naming both stacks
(:class:`ledger.model.errors.StacksNotLeft`). A file that gives finishing stacks and no
winnings is paid by them (:func:`replay.build.phh_fold`), so they agree by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.model.errors import StacksNotLeft
from replay.payout_rules import paid_by_player


def told_stacks(item: Any) -> list[int] | None:
    """The ``finishing_stacks`` (chips) of a hand read from PHH (``item``: a
    :class:`ledger.formats.phh.base.PhhHand`) that records ``winnings`` as well, the two to be
    checked against each other (:func:`stacks_finding`); None for any other hand, and for a
    hand counted in a session's chips (``_chip``), whose stacks the import converts."""
    finishing = getattr(item, "finishing_stacks", None)
    if not finishing or not item.payouts or "_chip" in (item.started.source or {}):
        return None
    return list(finishing)


def stacks_finding(events: Sequence[Any], state: Any, finishing: Sequence[int] | None, *,
                   file: str | None, line: int | None) -> StacksNotLeft | None:
    """The warning of a complete hand (``events``; ``state``: the engine's after them) whose
    file's ``finishing`` stacks (chips, seat order: :func:`told_stacks`) are not the stacks it
    leaves: each seat's starting stack less what he put in plus what the table paid him
    (RULES.md §1.2-1.5). Amounts as the file writes them (``0.20`` in a hand kept in cents):
    ``its finishing_stacks [0, 0, 2280] are not the stacks its actions and winnings leave,
    [540, 0, 1640]: ...``. None when they are, or when there is nothing to check."""
    if finishing is None or state.status != "complete":
        return None
    started = events[0]
    paid = paid_by_player(state.payouts)
    left = [seat.stack - state.contributed[seat.player] + paid.get(seat.player, 0)
            for seat in started.seats]
    if left == list(finishing):
        return None
    from ledger.formats.phh.base import format_amount

    def stacks(chips: Sequence[int]) -> str:
        return "[" + ", ".join(format_amount(c, started.unit.decimals) for c in chips) + "]"

    off = ", ".join(
        f"{seat.player} {'+' if f > k else '-'}{format_amount(abs(f - k), started.unit.decimals)}"
        for seat, f, k in zip(started.seats, finishing, left, strict=True) if f != k)
    return StacksNotLeft(
        f"its finishing_stacks {stacks(finishing)} are not the stacks its actions and "
        f"winnings leave, {stacks(left)} ({off}): the winnings are what the table paid "
        "(FORMATS.md §1), so the finishing stacks are wrong, or the winnings are",
        file=file, line=line, hand=started.hand)
