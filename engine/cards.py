"""The cards of one hand as plain data: :class:`Cards` and ``UNKNOWN``.

No hand state here: :mod:`engine.dealing` applies the dealing rules (RULES.md §4) to a hand,
:mod:`engine.hand` holds its cards. Cards are two-character strings (``'As'``, ``'Td'``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress

#: An unknown card (a hole card nobody saw); never a duplicate of another card.
UNKNOWN = "??"


@dataclass(slots=True)
class Cards:
    """Every card of the hand.

    ``hole``: each player's current cards (draws replace some); ``up``: face-up flag per hole
    card; ``boards``: one board per run; ``seen``: known cards live in a hand or on a board;
    ``discarded``: known cards thrown away in a draw; ``street_hole``: players dealt this
    street; ``drawn``: cards each player discarded in the current draw (absent = not yet);
    ``owed``: replacements still to deal; ``shown``: players who showed at the showdown;
    ``dealt``: how many cards have come off the deck (known or unknown, every hole, board and
    draw card; a card reshuffled and dealt again counts again).
    """

    hole: dict[str, list[str]] = field(default_factory=dict)
    up: dict[str, list[bool]] = field(default_factory=dict)
    boards: list[list[str]] = field(default_factory=lambda: [[]])
    seen: set[str] = field(default_factory=set)
    discarded: set[str] = field(default_factory=set)
    street_hole: set[str] = field(default_factory=set)
    drawn: dict[str, int] = field(default_factory=dict)
    owed: dict[str, int] = field(default_factory=dict)
    shown: set[str] = field(default_factory=set)
    dealt: int = 0

    @classmethod
    def new(cls, players: list[str]) -> Cards:
        return cls({p: [] for p in players}, {p: [] for p in players}, [[]], set(), set(),
                   set(), {}, {}, set())

    def copy(self) -> Cards:
        return Cards(
            {p: list(c) for p, c in self.hole.items()},
            {p: list(c) for p, c in self.up.items()},
            [list(b) for b in self.boards],
            set(self.seen),
            set(self.discarded),
            set(self.street_hole),
            dict(self.drawn),
            dict(self.owed),
            set(self.shown),
            self.dealt,
        )

    def up_cards(self, player: str) -> list[str]:
        """``player``'s face-up hole cards, in the order dealt."""
        return list(compress(self.hole[player], self.up[player]))

    def begin_street(self) -> None:
        """Forget the last street's deals and draws: nobody is dealt or has drawn yet."""
        self.street_hole = set()
        self.drawn = {}
        self.owed = {}
