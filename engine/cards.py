"""The cards of one hand as plain data: :class:`Cards` and ``UNKNOWN``.

No hand state here: :mod:`engine.dealing` applies the dealing rules (RULES.md §4) to a hand,
:mod:`engine.hand` holds its cards. Cards are two-character strings (``'As'``, ``'Td'``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import Any

from engine._compiled import by_fields

#: An unknown card (a hole card nobody saw); never a duplicate of another card.
UNKNOWN = "??"


@dataclass(slots=True, init=False)
class Cards:
    """Every card of the hand.

    ``hole``: each player's current cards (draws replace some); ``up``: face-up flag per hole
    card; ``boards``: one board per run; ``seen``: known cards dealt (live in a hand or on a
    board, folded, mucked or discarded) and not reshuffled since; ``discarded``: known cards
    thrown away in a draw, each with the player who threw it; ``street_hole``: players dealt this
    street; ``drawn``: cards each player discarded in the current draw (absent = not yet);
    ``owed``: replacements still to deal; ``shown``: players who showed at the showdown;
    ``dealt``: how many cards have come off the deck (known or unknown, every hole, board and
    draw card; a card reshuffled and dealt again counts again); ``thrown``: known cards
    discarded in the current draw (each one's player is in ``discarded``), which a reshuffle
    never gives back to the player who threw them (:func:`engine.deck.redealt`).
    """

    hole: dict[str, list[str]]
    up: dict[str, list[bool]]
    boards: list[list[str]]
    seen: set[str]
    discarded: dict[str, str]
    street_hole: set[str]
    drawn: dict[str, int]
    owed: dict[str, int]
    shown: set[str]
    dealt: int
    thrown: set[str]

    # Written out, not the dataclass's: mypyc compiles this one, the generated __init__ stays
    # interpreted (measured: Cards.new 0.9 us -> 0.6 us).
    def __init__(self, hole: dict[str, list[str]], up: dict[str, list[bool]],
                 boards: list[list[str]], seen: set[str], discarded: dict[str, str],
                 street_hole: set[str], drawn: dict[str, int], owed: dict[str, int],
                 shown: set[str], dealt: int = 0, thrown: set[str] | None = None) -> None:
        self.hole = hole
        self.up = up
        self.boards = boards
        self.seen = seen
        self.discarded = discarded
        self.street_hole = street_hole
        self.drawn = drawn
        self.owed = owed
        self.shown = shown
        self.dealt = dealt
        self.thrown = set() if thrown is None else thrown

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)

    @staticmethod
    def new(players: list[str]) -> Cards:
        """No card dealt yet to ``players``: one empty board (run)."""
        return Cards({p: [] for p in players}, {p: [] for p in players}, [[]], set(), {},
                     set(), {}, {}, set())

    def copy(self) -> Cards:
        return Cards(
            {p: list(c) for p, c in self.hole.items()},
            {p: list(c) for p, c in self.up.items()},
            [list(b) for b in self.boards],
            set(self.seen),
            dict(self.discarded),
            set(self.street_hole),
            dict(self.drawn),
            dict(self.owed),
            set(self.shown),
            self.dealt,
            set(self.thrown),
        )

    def up_cards(self, player: str) -> list[str]:
        """``player``'s face-up hole cards, in the order dealt."""
        return list(compress(self.hole[player], self.up[player]))

    def begin_street(self) -> None:
        """Forget the last street's deals and draws: nobody is dealt or has drawn yet."""
        self.street_hole = set()
        self.drawn = {}
        self.owed = {}
        self.thrown = set()
