"""Game definitions: the street structure and evaluation of every variant the engine plays.

Variant codes follow PHH (FORMATS.md §1): a betting letter (``N`` no-limit, ``P`` pot-limit,
``F`` fixed-limit) followed by the game. The eleven PHH codes (NT, FT, NS, PO, FO/8, F7S,
F7S/8, FR, N2L1D, F2L3D, FB) are all accepted, and so is any betting letter with any game
below (e.g. ``PT`` pot-limit hold'em, ``F5D`` fixed-limit five-card draw, ``P5O/8`` pot-limit
five-card Omaha hi-lo). Our own game codes, for what PHH lacks:

===========  ==========================================================
``5D``        five-card draw, high (single draw)
``5S``        five-card stud, high
``O5``        five-card Omaha (exactly two of the five hole cards)
``O`` / ``O/8`` / ``O5/8``   Omaha high / hi-lo 8-or-better
``T/8``       hold'em hi-lo 8-or-better (cards speak)
===========  ==========================================================

Structure follows RULES.md §4: stud deals two down and one up with a bring-in on third street,
small bets on the first two rounds and big bets after; draw games bet small before the
(first two) draws and big after. Any game becomes a declare game when its hand carries
``DeclareOptions`` (RULES.md §3).

Raises:
    UnknownGame (a ``ValueError``) for a code that names no game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate
from typing import Any, Literal

from engine._compiled import by_fields

Betting = Literal["no_limit", "pot_limit", "fixed_limit"]
Opening = Literal["position", "bring_in", "best_board"]
Evaluation = Literal["high", "hilo8", "a5_low", "deuce_seven", "badugi"]

_BETTING = {"N": "no_limit", "P": "pot_limit", "F": "fixed_limit"}


class UnknownGame(ValueError):
    """A variant code that names no game the engine plays."""


@dataclass(frozen=True, slots=True)
class Street:
    """One betting round and the dealing before it.

    ``hole_up``: one flag per hole card dealt to each player at the start of this street
    (True = face up). ``board``: board cards dealt. ``draw``: a discard-and-draw comes before
    the betting. ``big``: fixed-limit bet size is the big bet. ``opening``: who acts first.
    """

    hole_up: tuple[bool, ...]
    board: int
    draw: bool
    big: bool
    opening: Opening

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class Game:
    """A variant: code, name, betting structure, streets and how hands are ranked.

    ``hole_cards``: Omaha-style games must use exactly ``use_hole`` hole cards (2) with three
    board cards. ``deck``: ``standard`` (52) or ``short`` (36, sixes and up). ``stud``: no
    button; the bring-in and best board decide who acts. ``low_bring_in``: razz (the highest
    card brings in, the lowest board acts first).
    """

    code: str
    name: str
    betting: Betting
    streets: tuple[Street, ...]
    evaluation: Evaluation
    deck: Literal["standard", "short"] = "standard"
    use_hole: int | None = None
    stud: bool = False
    low_bring_in: bool = False
    #: Board cards out by the end of each street (derived from ``streets``).
    board_by_street: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        boards = tuple(accumulate(s.board for s in self.streets))
        object.__setattr__(self, "board_by_street", boards)

    @property
    def hole_count(self) -> int:
        return sum(len(s.hole_up) for s in self.streets)

    @property
    def board_count(self) -> int:
        return sum(s.board for s in self.streets)

    @property
    def is_draw(self) -> bool:
        return any(s.draw for s in self.streets)

    @property
    def hilo(self) -> bool:
        return self.evaluation == "hilo8"

    @property
    def ranking_said(self) -> str:
        """How a hand of this game is won without declaring (RULES.md §2, §3): ``high
        only``, ``low only`` (razz, deuce-to-seven, badugi) or ``cards speak high-low``
        (the 8-or-better games)."""
        if self.evaluation == "high":
            return "high only"
        return "cards speak high-low" if self.hilo else "low only"

    @property
    def default_reopen_rule(self) -> str:
        """RULES.md §1.7 / §5: ``half_bet`` in fixed limit, ``full_bet`` otherwise."""
        return "half_bet" if self.betting == "fixed_limit" else "full_bet"

    @property
    def tie_order(self) -> str:
        """Default ``odd_chip_tie_order`` (RULES.md §2.2, §5)."""
        return "card_by_suit" if self.stud else "left_of_button"

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


def _flop_game(hole: int) -> tuple[Street, ...]:
    return (
        Street((False,) * hole, 0, False, False, "position"),
        Street((), 3, False, False, "position"),
        Street((), 1, False, True, "position"),
        Street((), 1, False, True, "position"),
    )


_STUD7 = (
    Street((False, False, True), 0, False, False, "bring_in"),
    Street((True,), 0, False, False, "best_board"),
    Street((True,), 0, False, True, "best_board"),
    Street((True,), 0, False, True, "best_board"),
    Street((False,), 0, False, True, "best_board"),
)
_STUD5 = (
    Street((False, True), 0, False, False, "bring_in"),
    Street((True,), 0, False, False, "best_board"),
    Street((True,), 0, False, True, "best_board"),
    Street((True,), 0, False, True, "best_board"),
)


def _draw(hole: int, draws: int) -> tuple[Street, ...]:
    """Deal, bet small; then each draw and a bet: small after the first of three, else big."""
    first = Street((False,) * hole, 0, False, False, "position")
    later = tuple(
        Street((), 0, True, draws == 1 or i >= 1, "position") for i in range(draws)
    )
    return (first, *later)


# game code (without the betting letter) -> (name, streets, evaluation, extra kwargs)
_GAMES: dict[str, tuple[str, tuple[Street, ...], Evaluation, dict[str, object]]] = {
    "T": ("Texas hold'em", _flop_game(2), "high", {}),
    "T/8": ("Texas hold'em hi-lo 8-or-better", _flop_game(2), "hilo8", {}),
    "S": ("short-deck hold'em", _flop_game(2), "high", {"deck": "short"}),
    "O": ("Omaha", _flop_game(4), "high", {"use_hole": 2}),
    "O/8": ("Omaha hi-lo 8-or-better", _flop_game(4), "hilo8", {"use_hole": 2}),
    "O5": ("five-card Omaha", _flop_game(5), "high", {"use_hole": 2}),
    "O5/8": ("five-card Omaha hi-lo 8-or-better", _flop_game(5), "hilo8", {"use_hole": 2}),
    "7S": ("seven-card stud", _STUD7, "high", {"stud": True}),
    "7S/8": ("seven-card stud hi-lo 8-or-better", _STUD7, "hilo8", {"stud": True}),
    "R": ("razz", _STUD7, "a5_low", {"stud": True, "low_bring_in": True}),
    "5S": ("five-card stud", _STUD5, "high", {"stud": True}),
    "5D": ("five-card draw", _draw(5, 1), "high", {}),
    "2L1D": ("deuce-to-seven single draw", _draw(5, 1), "deuce_seven", {}),
    "2L3D": ("deuce-to-seven triple draw", _draw(5, 3), "deuce_seven", {}),
    "B": ("badugi", _draw(4, 3), "badugi", {}),
}

_CODE_RE = re.compile(r"^([NPF])(.+)$")


@cache
def game(code: str) -> Game:
    """Return the :class:`Game` for a variant code such as ``NT``, ``FO/8`` or ``F7S``.

    Raises:
        UnknownGame: the code has no betting letter ``N``/``P``/``F`` or names no game.
    """
    match = _CODE_RE.match(code or "")
    if not match or match.group(2) not in _GAMES:
        games = ", ".join(f"{g} {entry[0]}" for g, entry in _GAMES.items())
        upper = _CODE_RE.match((code or "").upper())
        meant = (f" did you mean {code.upper()!r}?" if upper and upper.group(2) in _GAMES
                 else "")
        raise UnknownGame(
            f"unknown variant {code!r}:{meant} a code is N (no-limit), P (pot-limit) or F "
            f"(fixed-limit) and a game: {games}; e.g. NT, PO/8, F7S")
    betting = _BETTING[match.group(1)]
    name, streets, evaluation, extra = _GAMES[match.group(2)]
    label = {"no_limit": "no-limit", "pot_limit": "pot-limit", "fixed_limit": "fixed-limit"}
    return Game(
        code=code,
        name=f"{label[betting]} {name}",
        betting=betting,  # type: ignore[arg-type]
        streets=streets,
        evaluation=evaluation,
        **extra,  # type: ignore[arg-type]
    )


#: The eleven PHH variant codes (FORMATS.md §1).
PHH_CODES = ("NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")


def shown_name(game: Game, declare: Any | None) -> str:
    """The name a hand of ``game`` is shown by: ``game.name``, but for a declare hand
    (``declare``: its :class:`ledger.model.events.DeclareOptions`, None for cards speak) of
    a game whose code names the 8-or-better qualifier (``F7S/8``), whose low the declare
    options qualify, not the code (RULES.md §3.11, §5: declare default ``none``), the
    declaration and the qualifier it plays: ``fixed-limit seven-card stud hi-lo declare, no
    low qualifier`` or ``…, 8-or-better``."""
    if declare is None or game.evaluation != "hilo8":
        return game.name
    base = game.name.removesuffix(" hi-lo 8-or-better")
    low = "8-or-better" if declare.low_qualifier == "8_or_better" else "no low qualifier"
    return f"{base} hi-lo declare, {low}"


def all_codes() -> list[str]:
    """Every code the engine accepts: each betting letter with each game."""
    return [f"{b}{g}" for g in _GAMES for b in "NPF"]
