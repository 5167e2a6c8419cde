"""Amounts as the host types them: a hand kept in a unit with decimals (an imported file in
dollars and cents, FORMATS.md §1; its ``hand_started`` ``unit``) takes its actions' amounts in
that unit (``Ann cbr 4.00`` is 400 chips of 0.01), so every amount a live command shows the
host (``state``, what ``act`` prints next, a refusal) is written the same way; a hand of whole
chips shows its chips as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.notation import format_amount
from engine.state import HandState


def as_typed(state: HandState, chips: int) -> str:
    """``chips`` as an action of ``state``'s hand writes them (:func:`engine.notation.
    format_amount` in the hand's unit): ``"150"`` in a hand of whole chips, ``"1.50"`` in one
    kept in cents (decimals 2)."""
    return format_amount(chips, state.started.unit.decimals)


def stream_decimals(events: Sequence[Any]) -> int:
    """The decimals of the unit of the hand stream ``events`` (its ``hand_started``, first),
    in which its actions write amounts (2: a hand kept in cents); 0 for a stream without its
    start."""
    return events[0].unit.decimals if events and events[0].type == "hand_started" else 0


def reason_as_typed(error: IllegalAction, decimals: int) -> str:
    """The engine's refusal ``error`` with its amounts written as a hand of ``decimals``
    (the hand's ``unit.decimals``) types them: ``"raise to 3.00 is below the minimum 4.00"``
    for the engine's ``"raise to 300 is below the minimum 400"`` in a hand kept in cents
    (:meth:`engine.errors.IllegalAction.reason_in`); the reason unchanged for whole chips."""
    if not decimals:
        return error.reason
    return error.reason_in(lambda chips: format_amount(chips, decimals))


def smallest_unit_note(decimals: int, what: str = "stacks and pots") -> str | None:
    """For a hand kept in a unit with ``decimals`` (a file in dollars and cents), the line
    that says ``what`` it shows (its stacks and pots) is counted in chips of its smallest
    unit while its actions are written in its notation (``show``, ``state`` of a hand that is
    over, which explain the pots as the engine counts them; ``whatif`` and ``correct``, whose
    nets are the books'); None for a hand in whole chips."""
    if not decimals:
        return None
    one = 10 ** decimals
    return (f"({what} in the hand's smallest unit, {one} = "
            f"{format_amount(one, decimals)}; actions as its notation writes them)")


def bet_range(verb: str, low: str, high: str, fixed: bool) -> str:
    """What a bet, raise or completion (``verb``) may go to, amounts as typed: ``"raise to
    4..100"``; in fixed limit, where a range is only the open pair's choice of the small or
    the big bet (RULES.md §4.1) and nothing between is taken, ``"bet 2 or 4"``."""
    if fixed and low != high:
        return f"{verb} {low} or {high}"
    return f"{verb} to {low}..{high}"
