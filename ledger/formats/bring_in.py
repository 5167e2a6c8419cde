"""A stud hand's bring-in checked against its bet sizes (RULES.md §4.1): the bring-in is a
forced bet below the full bet (the small bet in fixed limit, the minimum bet in no-limit and
pot-limit stud); opening for a full bet is completing, a separate action. Every reader of a
hand's stakes (a PHH file, a JSON-lines ``hand_started``) refuses one at or above it alike.
"""

from __future__ import annotations

from typing import Any


def bring_in_fault(stud: bool, stakes: Any) -> tuple[str, str] | None:
    """``(key, reason)`` when ``stakes`` (:class:`ledger.model.events.Stakes`, chips) of a stud
    game (``stud``) give a bring-in not below the full bet: ``key`` the stakes field at fault
    (``"bring_in"``) and ``reason`` the words of the refusal (``bring_in 4 is not below
    small_bet 4: …``); None when it is below, when the game is no stud, or when no full bet
    is given (RULES.md §4.1)."""
    key, full = ("small_bet", stakes.small_bet) if stakes.betting == "fixed_limit" else (
        "min_bet", stakes.min_bet)
    if not (stud and full and stakes.bring_in >= full):
        return None
    return "bring_in", (f"bring_in {stakes.bring_in} is not below {key} {full}: the bring-in "
                        "is less than a full bet, which completing it makes (RULES.md §4.1)")
