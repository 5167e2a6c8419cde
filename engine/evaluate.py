"""Hand evaluation: the one seam over a hand-evaluation library (pokerkit's lookups).

Everything else in the engine ranks hands through :func:`best_high`, :func:`best_low` and
:func:`best_for_game`, and compares the :class:`Rank` values they return; nothing outside this
module and the generator of its snapshot of pokerkit's rankings (engine/rank_tables.py) imports
pokerkit, so a faster library can replace it here alone.

Cards are our two-character strings (``'As'``, ``'Td'``); ``'??'`` (an unknown card) cannot be
evaluated. What is adapted, and how (RULES.md §2):

* high: pokerkit's standard ranking; short deck (``game.deck == 'short'``) its short-deck
  ranking (flush beats full house). Best five of all the cards (hold'em, stud: five of seven).
* Omaha (``game.use_hole == 2``): exactly two hole cards and three board cards, for high and
  low alike (RULES.md §2.6).
* low methods (RULES.md §2.5): ``A-5`` aces low, straights and flushes ignored; ``2-7`` aces
  high, straights and flushes count; ``A-6`` aces low, straights and flushes count;
  ``standard_ranks`` the usual high ranking read upside down (the wheel is a straight).
* ``8_or_better`` (RULES.md §2.4): five cards of different ranks, none above 8, the ace
  counting as 1 where the method plays it low (A-5, A-6) and as 14 otherwise (2-7,
  ``standard_ranks``), so an ace never qualifies there.
* badugi: pokerkit's ace-to-five badugi (four-card badugi beats any three-card hand, …).

Speed: a hand's score depends only on the multiset of ranks and whether the five cards are
suited, so each ranking memoises pokerkit's answer under that key (computed from partial
products of the cards in the loop over five-card hands); card parsing is done once at import
and whole evaluations are cached, those of hands that cannot make a flush by their ranks alone
(hole and board ranks apart for Omaha), so that the same hand in other suits is not evaluated
again.

pokerkit's answers are a finite table, so the five-card rankings read them from a snapshot
(``engine/ranks/*.json``, one file a lookup of :data:`TABLE_FILES`, read at its first use):
pokerkit's entry index and label of every memo key, written from pokerkit by
``python -m engine.rank_tables`` and compared with pokerkit key for key by the tests. pokerkit
is still the source of every ranking, but a process that ranks a hand no longer imports it
(building its lookup tables costs about half a second of CPU): only badugi asks pokerkit
itself (:func:`_lib`, at the first badugi evaluation).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from itertools import combinations
from typing import Any, Final

from engine._compiled import by_fields
from engine.games import Game

__all__ = ["Rank", "best_high", "best_low", "best_for_game", "card_suit_key"]

_RANK_CHARS = "23456789TJQKA"
_SUIT_ORDER = "cdhs"  # clubs < diamonds < hearts < spades (RULES.md §2.2)
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")
LOW_METHODS: Final = ("A-5", "2-7", "A-6", "standard_ranks")
QUALIFIERS: Final = ("8_or_better", "none")


@dataclass(frozen=True, order=True)
class Rank:
    """An evaluated hand. Greater compares better in every direction (a better low is greater).

    ``key`` is only comparable with keys from the same function, method and qualifier; lows
    compare from the top card down (RULES.md §2.5).
    ``label`` is for people: ``"two pair, kings and fives, 8 kicker"``, ``"7-5-4-2-A low"``.
    """

    key: tuple[int, ...] | int
    label: str = field(compare=False)

    def __init__(self, key: tuple[int, ...] | int, label: str) -> None:
        # written out, not generated: compiled, object.__setattr__ here is a direct store (the
        # frozen dataclass's generated __init__ is interpreted, engine/awards.py PotAward)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "label", label)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class _Card:
    text: str
    rank: int  # 2 … 14 (ace 14)
    suit: int  # clubs 0, diamonds 1, hearts 2, spades 3
    prime: int
    bit: int  # 1 << suit

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


# The module's tables are Final names: compiled, each is a C static, where a global is a
# dictionary lookup at every read (several an evaluation).
_CARDS: Final[dict[str, _Card]] = {
    r + s: _Card(r + s, i + 2, j, _PRIMES[i], 1 << j)
    for i, r in enumerate(_RANK_CHARS)
    for j, s in enumerate(_SUIT_ORDER)
}


@dataclass(frozen=True)
class _Lib:
    """pokerkit's side of the seam: its lookup tables by name and its card of each of ours."""

    lookups: dict[str, Any]
    cards: dict[str, Any]

    def entry(self, lookup: str, combo: Iterable[_Card]) -> Any:
        """pokerkit's lookup entry of ``combo`` in ``lookup`` (None: no hand of that kind)."""
        return self.lookups[lookup].get_entry_or_none(tuple(self.cards[c.text] for c in combo))

    def __reduce__(self) -> tuple[Any, ...]:  # compiled: engine/_compiled.py
        return by_fields(self)


@lru_cache(maxsize=1)
def _lib() -> _Lib:
    """pokerkit's lookups, imported and built once: at the first badugi evaluation, and by
    the snapshot's generator (engine/rank_tables.py) for the others (module doc)."""
    from pokerkit.hands import (
        BadugiHand,
        EightOrBetterLowHand,
        RegularLowHand,
        ShortDeckHoldemHand,
        StandardHighHand,
        StandardLowHand,
    )
    from pokerkit.lookups import Standard2Lookup
    from pokerkit.utilities import Card, RankOrder

    # Ace-to-six: pokerkit's no-wrap standard lookup over the ace-low rank order (made with
    # type(): a class statement inside a function cannot be compiled, engine/_compiled.py)
    ace_to_six = type("AceToSixLookup", (Standard2Lookup,), {"rank_order": RankOrder.REGULAR})

    lookups = {"high": StandardHighHand.lookup, "short": ShortDeckHoldemHand.lookup,
               "A-5": RegularLowHand.lookup, "A-5/8": EightOrBetterLowHand.lookup,
               "2-7": StandardLowHand.lookup, "A-6": ace_to_six(),
               "badugi": BadugiHand.lookup}
    return _Lib(lookups, {text: next(Card.parse(text)) for text in _CARDS})


#: The snapshot file (in ``engine/ranks``) of each five-card lookup of :func:`_lib`.
TABLE_FILES: Final[dict[str, str]] = {
    "high": "high.json", "short": "short.json", "A-5": "a5.json", "A-5/8": "a5-8.json",
    "2-7": "27.json", "A-6": "a6.json"}


class _Table:
    """One lookup's snapshot: pokerkit's entry index (None: no entry) and label ``(name,
    text)``, as pokerkit's ``Label``, under each memo key (:meth:`_Ranking.key`)."""

    def __init__(self, data: dict[str, Any]) -> None:
        labels = [(str(name), str(text)) for name, text in data["labels"]]
        keys: list[int] = data["keys"]
        self.index: dict[int, int | None] = dict(zip(keys, data["index"], strict=True))
        self.labels: dict[int, tuple[str, str]] = {
            key: labels[number]
            for key, number in zip(keys, data["label"], strict=True) if number is not None}


#: The snapshots read so far, by lookup.
_TABLES: Final[dict[str, _Table]] = {}


def _table(lookup: str) -> _Table:
    """The snapshot of ``lookup``, read from the package's data at its first use."""
    table = _TABLES.get(lookup)
    if table is None:
        text = files("engine").joinpath("ranks").joinpath(TABLE_FILES[lookup]).read_text(
            encoding="utf-8")
        table = _TABLES[lookup] = _Table(json.loads(text))
    return table


def memo_key(cards: Sequence[str]) -> int:
    """The memo key of five cards (``'As'``…): the product of their rank primes (two 2 …
    ace 41) shifted left once, or 1 when the five are of one suit; a snapshot's key.

    Raises:
        ValueError: not five cards, or a card is ``'??'`` or not a card.
    """
    combo = _parse(cards)
    if len(combo) != 5:
        raise ValueError(f"a memo key is of five cards, got {len(combo)}")
    return _Ranking.key(combo)


def pokerkit_entry(lookup: str, cards: Sequence[str]) -> tuple[int, Any] | None:
    """pokerkit's own entry ``(index, Label)`` of ``cards`` in ``lookup`` (a name of
    :data:`TABLE_FILES`, or ``'badugi'``), or None where it has none: what a snapshot holds,
    asked of pokerkit (imported and its lookups built at the first call).

    Raises:
        KeyError: an unknown lookup. ValueError: a card is ``'??'`` or not a card.
    """
    entry = _lib().entry(lookup, _parse(cards))
    return None if entry is None else (entry.index, entry.label)


def _parse(cards: Iterable[str]) -> tuple[_Card, ...]:
    try:
        parsed = tuple([_CARDS[c] for c in cards])
    except KeyError as exc:
        what = "an unknown card" if exc.args[0] == "??" else "not a card"
        raise ValueError(f"cannot evaluate {exc.args[0]!r}: {what}") from None
    return parsed


class _Ranking:
    """One way of ranking five-card hands, backed by a pokerkit lookup (named as in
    :func:`_lib`, read from its snapshot, :func:`_table`), with a memo.

    ``fill(key, combo)`` is higher-is-better (pokerkit low lookups are lower-is-better, so
    their index is negated) or ``None`` when the cards make no hand of this kind (or do not
    qualify); :func:`_best` keeps it in ``memo`` under :meth:`key`.
    """

    def __init__(self, lookup: str, *, low: bool, ace_low: bool, eight: bool = False) -> None:
        self.lookup = lookup
        self.low = low
        self.ace_low = ace_low
        self.eight = eight
        self.memo: dict[int, int | None] = {}
        self.labels: dict[int, str] = {}

    @staticmethod
    def key(combo: tuple[_Card, ...]) -> int:
        """The product of the rank primes (the rank multiset) and a suited bit (as
        :func:`_best` computes it from partial products)."""
        a, b, c, d, e = combo
        return (a.prime * b.prime * c.prime * d.prime * e.prime) << 1 | (
            (a.bit & b.bit & c.bit & d.bit & e.bit) != 0
        )

    def fill(self, key: int, combo: tuple[_Card, ...]) -> int | None:
        """The score of ``combo`` (memo key ``key``) from pokerkit's snapshot (its memo entry,
        which :func:`_best` keeps)."""
        if self.eight:
            lows = {1 if (c.rank == 14 and self.ace_low) else c.rank for c in combo}
            if len(lows) != 5 or max(lows) > 8:
                return None
        index = _table(self.lookup).index[key]
        if index is None:
            return None
        return -index if self.low else index

    def label(self, combo: tuple[_Card, ...]) -> str:
        key = self.key(combo)
        text = self.labels.get(key)
        if text is None:
            name, category = _table(self.lookup).labels[key]
            if self.low:
                text = _low_label(name, category, combo, self.ace_low)
            else:
                text = _high_label(name, combo)
            self.labels[key] = text
        return text


_HIGH: Final = _Ranking("high", low=False, ace_low=False)
_SHORT: Final = _Ranking("short", low=False, ace_low=False)
_LOWS: Final[dict[tuple[str, str], _Ranking]] = {
    ("A-5", "none"): _Ranking("A-5", low=True, ace_low=True),
    ("A-5", "8_or_better"): _Ranking("A-5/8", low=True, ace_low=True, eight=True),
    ("2-7", "none"): _Ranking("2-7", low=True, ace_low=False),
    ("2-7", "8_or_better"): _Ranking("2-7", low=True, ace_low=False, eight=True),
    ("A-6", "none"): _Ranking("A-6", low=True, ace_low=True),
    ("A-6", "8_or_better"): _Ranking("A-6", low=True, ace_low=True, eight=True),
    ("standard_ranks", "none"): _Ranking("high", low=True, ace_low=False),
    ("standard_ranks", "8_or_better"): _Ranking("high", low=True, ace_low=False, eight=True),
}
_BADUGI_MEMO: Final[dict[int, int]] = {}
_MISSING: Final[Any] = object()
#: Evaluations of hands that cannot make a flush, by ``(kind, ranks, use_hole)`` (suits aside):
#: ``ranks`` the products of the rank primes of the hole cards and of the board's (Omaha), or
#: of all the cards and 1: a product names a multiset of ranks (unique factorisation), and
#: is hashed and compared faster than the sorted ranks.
_BY_RANKS: Final[dict[tuple[tuple[str, str], int, int, int | None], Rank | None]] = {}
_BY_RANKS_MAX: Final = 1 << 16


def _parts(cards: tuple[_Card, ...], k: int) -> list[tuple[int, int, tuple[_Card, ...]]]:
    """``(product of rank primes, AND of suit bits, cards)`` of every ``k`` of ``cards``."""
    out = []
    for combo in combinations(cards, k):
        product, bits = 1, 15
        for card in combo:
            product *= card.prime
            bits &= card.bit
        out.append((product, bits, combo))
    return out


def _best(ranking: _Ranking, hole: tuple[_Card, ...], board: tuple[_Card, ...],
          use_hole: int | None) -> Rank | None:
    """The best five of ``hole`` + ``board`` (Omaha: ``use_hole`` of ``hole`` and the rest of
    ``board``) in ``ranking``; None when no five make a hand of its kind.

    The five-card key (:meth:`_Ranking.key`) is computed inline; in Omaha from partial
    products of the 6 hole pairs and the 10 board triples rather than for each of 60 hands
    (:func:`_best_omaha`). One loop over partial products for both was measured: hold'em's
    7 cards then cost 42 µs instead of 29, so the two loops stay apart.
    """
    if use_hole:
        if len(hole) < use_hole or len(board) < 5 - use_hole:
            raise ValueError(
                f"needs {use_hole} hole and {5 - use_hole} board cards, "
                f"got {len(hole)} and {len(board)}"
            )
        return _best_omaha(ranking, _parts(hole, use_hole), _parts(board, 5 - use_hole))
    cards = hole + board
    if len(cards) < 5:
        raise ValueError(f"needs five cards, got {len(cards)}")
    memo = ranking.memo
    best: int | None = None
    best_combo: tuple[_Card, ...] = ()
    for combo in combinations(cards, 5):
        a, b, c, d, e = combo
        key = (a.prime * b.prime * c.prime * d.prime * e.prime) << 1 | (
            (a.bit & b.bit & c.bit & d.bit & e.bit) != 0
        )
        value = memo.get(key, _MISSING)
        if value is _MISSING:
            value = memo[key] = ranking.fill(key, combo)
        if value is not None and (best is None or value > best):
            best, best_combo = value, combo
    if best is None:
        return None
    return Rank(best, ranking.label(best_combo))


def _best_omaha(ranking: _Ranking, firsts: list[tuple[int, int, tuple[_Card, ...]]],
                rests: list[tuple[int, int, tuple[_Card, ...]]]) -> Rank | None:
    """:func:`_best` over each of ``firsts`` (hole) with each of ``rests`` (board)."""
    memo = ranking.memo
    best: int | None = None
    best_combo: tuple[_Card, ...] = ()
    for first_product, first_bits, first in firsts:
        for rest_product, rest_bits, rest in rests:
            key = (first_product * rest_product) << 1 | ((first_bits & rest_bits) != 0)
            value = memo.get(key, _MISSING)
            if value is _MISSING:
                value = memo[key] = ranking.fill(key, first + rest)
            if value is not None and (best is None or value > best):
                best, best_combo = value, first + rest
    if best is None:
        return None
    return Rank(best, ranking.label(best_combo))


@lru_cache(maxsize=1 << 14)
def _evaluate(kind: tuple[str, str], hole: tuple[str, ...], board: tuple[str, ...],
              use_hole: int | None) -> Rank | None:
    cards_hole, cards_board = _parse(hole), _parse(board)
    cards = cards_hole + cards_board
    if len({c.text for c in cards}) != len(cards):
        raise ValueError(f"a card appears twice in {hole} + {board}")
    if kind[0] == "short":
        for c in cards:
            if c.rank < 6:
                raise ValueError(f"{hole + board} has cards below six in a short-deck game")
    if kind[0] == "badugi":
        return _best_badugi(cards)
    if _may_flush(cards_hole, cards_board, use_hole):
        return _best_of(kind, cards_hole, cards_board, use_hole)
    # no five cards it may use are suited: the answer depends on the ranks alone
    hole_ranks = 1
    for c in cards_hole:
        hole_ranks *= c.prime
    board_ranks = 1
    for c in cards_board:
        board_ranks *= c.prime
    if not use_hole:  # the hole and board cards play alike: their ranks together
        hole_ranks, board_ranks = hole_ranks * board_ranks, 1
    memo_key = (kind, hole_ranks, board_ranks, use_hole)
    rank = _BY_RANKS.get(memo_key, _MISSING)
    if rank is _MISSING:
        rank = _best_of(kind, cards_hole, cards_board, use_hole)
        if len(_BY_RANKS) >= _BY_RANKS_MAX:
            _BY_RANKS.clear()
        _BY_RANKS[memo_key] = rank
    return rank


def _may_flush(hole: tuple[_Card, ...], board: tuple[_Card, ...], use_hole: int | None) -> bool:
    """Whether five of the cards a hand may use (Omaha: ``use_hole`` hole cards and the rest
    from the board) can be of one suit."""
    if use_hole:
        held, shown = [0, 0, 0, 0], [0, 0, 0, 0]  # cards of each suit (loops, not generators)
        for card in hole:
            held[card.suit] += 1
        for card in board:
            shown[card.suit] += 1
        for s in range(4):
            if held[s] >= use_hole and shown[s] >= 5 - use_hole:
                return True
        return False
    counts = [0, 0, 0, 0]
    for card in hole:
        counts[card.suit] += 1
    for card in board:
        counts[card.suit] += 1
    for count in counts:  # compiled, max() of a list is a generic call
        if count >= 5:
            return True
    return False


def _best_of(kind: tuple[str, str], hole: tuple[_Card, ...], board: tuple[_Card, ...],
             use_hole: int | None) -> Rank | None:
    ranking = _SHORT if kind[0] == "short" else _HIGH if kind[0] == "high" else _LOWS[kind]
    return _best(ranking, hole, board, use_hole)


def best_high(game: Game, hole: Sequence[str], board: Sequence[str]) -> Rank:
    """The best high hand of ``hole`` with ``board`` in ``game`` (RULES.md §2.6, §2.7).

    ``hole``: the player's cards (stud: all his up and down cards); ``board``: the community
    cards of this run (empty for stud and draw). Omaha uses exactly two hole cards and three
    board cards; short deck ranks a flush above a full house.

    Raises:
        ValueError: a card is ``'??'`` or not a card, a card repeats, too few cards for a
            five-card hand, or a card below six in a short-deck game.
    """
    kind = ("short" if game.deck == "short" else "high", "")
    rank = _evaluate(kind, tuple(hole), tuple(board), game.use_hole)
    assert rank is not None  # every five distinct cards make a high hand
    return rank


def best_low(
    game: Game, hole: Sequence[str], board: Sequence[str], method: str, qualifier: str
) -> Rank | None:
    """The best low hand, or ``None`` when no five cards make a qualifying low.

    ``method``: ``'A-5'`` | ``'2-7'`` | ``'A-6'`` | ``'standard_ranks'`` (RULES.md §2.5);
    ``qualifier``: ``'8_or_better'`` (five different ranks, none above 8, RULES.md §2.4) or
    ``'none'``. Omaha uses exactly two hole cards and three board cards (RULES.md §2.6); stud
    any five of seven (§2.7). A greater :class:`Rank` is a better low.

    Raises:
        ValueError: unknown method or qualifier, a card is ``'??'`` or not a card, a card
            repeats, or too few cards for a five-card hand.
    """
    if method not in LOW_METHODS or qualifier not in QUALIFIERS:
        raise ValueError(f"unknown low method {method!r} or qualifier {qualifier!r}")
    return _evaluate((str(method), str(qualifier)), tuple(hole), tuple(board), game.use_hole)


def best_for_game(game: Game, hole: Sequence[str], board: Sequence[str]) -> Rank:
    """The game's own single ranking: high (also the high side of hi-lo games), ``a5_low``
    (razz: A-5, no qualifier), ``deuce_seven`` (2-7, no qualifier) or ``badugi``.

    Raises:
        ValueError: as :func:`best_high` / :func:`best_low`; badugi with no cards.
    """
    if game.evaluation in ("high", "hilo8"):
        return best_high(game, hole, board)
    if game.evaluation == "badugi":
        rank = _evaluate(("badugi", ""), tuple(hole), tuple(board), None)
    else:
        method = "A-5" if game.evaluation == "a5_low" else "2-7"
        rank = best_low(game, hole, board, method, "none")
    assert rank is not None  # without a qualifier every hand has a low
    return rank


def card_suit_key(card: str, *, ace_low: bool = False) -> tuple[int, int]:
    """Sort key ``(rank, suit)`` of one card for the stud odd-chip rule (RULES.md §2.2).

    Rank 2 … 14 (ace 14, or 1 with ``ace_low`` for A-5/A-6 lows); suit clubs 0 < diamonds 1 <
    hearts 2 < spades 3. The highest card by suit is ``max`` of these keys, the lowest ``min``.

    >>> card_suit_key('As'), card_suit_key('Ac', ace_low=True)
    ((14, 3), (1, 0))

    Raises:
        ValueError: ``'??'`` or not a card.
    """
    parsed = _parse((card,))[0]
    return (1 if ace_low and parsed.rank == 14 else parsed.rank, parsed.suit)


def _best_badugi(cards: tuple[_Card, ...]) -> Rank:
    for count in range(min(4, len(cards)), 0, -1):
        best: int | None = None
        best_combo: tuple[_Card, ...] = ()
        for combo in combinations(cards, count):
            if len({c.suit for c in combo}) != count or len({c.rank for c in combo}) != count:
                continue
            key = 1
            for c in combo:
                key *= c.prime
            value = _BADUGI_MEMO.get(key)
            if value is None:
                value = -_lib().entry("badugi", combo).index
                _BADUGI_MEMO[key] = value
            if best is None or value > best:
                best, best_combo = value, combo
        if best is not None:
            ranks = "-".join(_char(r) for r in _low_order(best_combo, ace_low=True))
            what = "badugi" if count == 4 else f"{count}-card hand"
            return Rank(best, f"{what}, {ranks}")
    raise ValueError("badugi needs at least one card")


# ------------------------------------------------------------------------------------------
# Labels


def _char(rank: int) -> str:
    return "A" if rank == 1 else _RANK_CHARS[rank - 2]


def _plural(rank: int) -> str:
    return "sixes" if rank == 6 else _WORDS[rank - 2] + "s"


def _low_order(combo: tuple[_Card, ...], *, ace_low: bool) -> list[int]:
    return sorted((1 if ace_low and c.rank == 14 else c.rank for c in combo), reverse=True)


def _low_label(name: str, category: str, combo: tuple[_Card, ...], ace_low: bool) -> str:
    """``name``, ``category``: the name and text of pokerkit's ``Label`` of the hand (from the
    snapshot: ``"ONE_PAIR"``, ``"One pair"``)."""
    text = "-".join(_char(r) for r in _low_order(combo, ace_low=ace_low)) + " low"
    return text if name == "HIGH_CARD" else f"{text} ({category.lower()})"


def _high_label(category: str, combo: tuple[_Card, ...]) -> str:
    """``category``: the name of pokerkit's ``Label`` of the hand (``"FULL_HOUSE"``)."""
    counts = Counter(c.rank for c in combo)
    ranks = [r for r, _ in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)]
    kickers = "-".join(_char(r) for r in ranks[1:])
    top = ranks[0]
    if category in ("STRAIGHT", "STRAIGHT_FLUSH"):
        # an ace without a king plays low: the wheel (and short deck's A-6-7-8-9)
        high = max(r for r in ranks if r != 14) if 14 in ranks and 13 not in ranks else top
        if category == "STRAIGHT_FLUSH":
            return "royal flush" if high == 14 else f"straight flush, {_WORDS[high - 2]} high"
        return f"straight, {_WORDS[high - 2]} high"
    match category:
        case "FOUR_OF_A_KIND":
            return f"four of a kind, {_plural(top)}, {kickers} kicker"
        case "FULL_HOUSE":
            return f"full house, {_plural(top)} full of {_plural(ranks[1])}"
        case "FLUSH":
            return "flush, " + "-".join(_char(r) for r in ranks)
        case "THREE_OF_A_KIND":
            return f"three of a kind, {_plural(top)}, {kickers} kickers"
        case "TWO_PAIR":
            return f"two pair, {_plural(top)} and {_plural(ranks[1])}, {_char(ranks[2])} kicker"
        case "ONE_PAIR":
            return f"pair of {_plural(top)}, {kickers} kickers"
    return "high card, " + "-".join(_char(r) for r in ranks)
