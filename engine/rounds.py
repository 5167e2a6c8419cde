"""The betting round's plain data: :class:`Round`, :class:`Limits` and the rules read off them.

No hand state here: :mod:`engine.betting` applies the rules to a hand, :mod:`engine.hand`
holds the current round. RULES.md §1.7 (reopening), §1.8 (fixed-limit caps). Chips are ints,
all amounts street totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine._compiled import by_fields


@dataclass(slots=True, init=False)
class Round:
    """The state of the current betting round.

    ``current``: the highest street total (chips). ``full_level``: the street total set by the
    last full bet or raise (or the big blind / straddle, or 0 before any bet).
    ``increment``: the size of the last full bet or raise (the minimum raise in big-bet games).
    ``acted``: each player's ``current`` when he last acted voluntarily this round.
    ``pending``: players who must still act before the round closes.
    ``raises``: full bets and raises so far (for the fixed-limit cap); ``capped``: the cap was
    reached while three or more players could bet.
    """

    current: int
    full_level: int
    increment: int
    acted: dict[str, int]
    pending: list[str]
    raises: int
    capped: bool
    last_aggressor: str | None
    first_actor: str | None
    opener_unknown: bool

    # Written out, not the dataclass's: mypyc compiles this one, the generated __init__ stays
    # interpreted (measured: a round's construction 0.30 us -> 0.14 us).
    def __init__(self, current: int, full_level: int, increment: int, acted: dict[str, int],
                 pending: list[str], raises: int = 0, capped: bool = False,
                 last_aggressor: str | None = None, first_actor: str | None = None,
                 opener_unknown: bool = False) -> None:
        self.current = current
        self.full_level = full_level
        self.increment = increment
        self.acted = acted
        self.pending = pending
        self.raises = raises
        self.capped = capped
        self.last_aggressor = last_aggressor
        self.first_actor = first_actor
        self.opener_unknown = opener_unknown

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)

    def copy(self) -> Round:
        return Round(
            self.current,
            self.full_level,
            self.increment,
            dict(self.acted),
            list(self.pending),
            self.raises,
            self.capped,
            self.last_aggressor,
            self.first_actor,
            self.opener_unknown,
        )


@dataclass(frozen=True)
class Limits:
    """What a player may do now: ``to_call`` chips, and the raise range as street totals
    (``min_to``..``max_to``; ``None`` when he may not raise), with the ``reason`` when he may
    not."""

    to_call: int
    min_to: int | None
    max_to: int | None
    reason: str = ""

    # Written out, as engine.awards.PotAward's: compiled, object.__setattr__ here is a direct
    # store (the frozen dataclass's generated __init__, or a named tuple's, stays interpreted).
    def __init__(self, to_call: int, min_to: int | None, max_to: int | None,
                 reason: str = "") -> None:
        object.__setattr__(self, "to_call", to_call)
        object.__setattr__(self, "min_to", min_to)
        object.__setattr__(self, "max_to", max_to)
        object.__setattr__(self, "reason", reason)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def reopened_for(rnd: Round, player: str, threshold: int) -> bool:
    """May ``player`` raise? Yes if he has not acted this round, or the bet has grown by at
    least ``threshold`` (a full raise; short all-ins count together) since he acted."""
    level = rnd.acted.get(player)
    return level is None or rnd.current - level >= threshold


def cap_for(street_count: int) -> int:
    """Full bets/raises allowed per round in fixed limit (RULES.md §1.8)."""
    return 4 if street_count >= 3 else 5
