"""Who acts first in stud: the bring-in by up-card and the best board showing (RULES.md §4.1).

These rank partial boards of face-up cards only; straights and flushes do not count on a
board of fewer than five cards, pairs and trips do. Suits rank spades > hearts > diamonds >
clubs (RULES.md §2.2).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations_with_replacement
from typing import Final

from engine.cards import UNKNOWN

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"  # clubs lowest


# Final: compiled, a Final name is a C static (a global is a dictionary lookup at each read)
_VALUES: Final = {r: i + 2 for i, r in enumerate(_RANKS)}
_LOW_VALUES: Final = {**_VALUES, "A": 1}  # aces low (razz)
#: Each card's sort key (rank, then suit), aces high and aces low: looked up, not worked out,
#: for every up card of every live player at each stud street.
_ORDER: Final = {r + s: (v, i) for r, v in _VALUES.items() for i, s in enumerate(_SUITS)}
_LOW_ORDER: Final = {r + s: (v, i) for r, v in _LOW_VALUES.items() for i, s in enumerate(_SUITS)}


def rank_value(card: str, *, ace_low: bool = False) -> int:
    """2..14 for ``2``..``A``; an ace is 1 when ``ace_low``."""
    value = _VALUES.get(card[:1])
    if value is None:
        raise ValueError(f"{card!r} is not a card")
    return 1 if ace_low and value == 14 else value


def card_order(card: str, *, ace_low: bool = False) -> tuple[int, int]:
    """Sort key of one card: rank, then suit (clubs < diamonds < hearts < spades)."""
    key = (_LOW_ORDER if ace_low else _ORDER).get(card[:2])
    if key is None:
        raise ValueError(f"{card!r} is not a card")
    return key


def bring_in_player(
    up_cards: Sequence[tuple[str, str]], *, razz: bool, hilo: bool
) -> str:
    """The player who must bring it in, from ``(player, up card)`` pairs in seat order.

    High and high-low stud: the lowest up card by suit, aces high (RULES.md §4.1; CASINO-S8
    for hi-lo). Razz: the highest up card by suit, aces low.
    """
    del hilo  # aces count high for the bring-in in both high and hi-lo stud
    if razz:
        return max(up_cards, key=lambda pc: card_order(pc[1], ace_low=True))[0]
    return min(up_cards, key=lambda pc: card_order(pc[1]))[0]


def _bring_in_key(card: str, razz: bool) -> tuple[int, int]:
    """Sort key of an up card for the bring-in: the least brings it in (razz: the highest
    card, aces low, so its key is negated)."""
    v, s = card_order(card, ace_low=razz)
    return (-v, -s) if razz else (v, s)


def bring_in_candidates(
    up_cards: Sequence[tuple[str, str]], seen: Collection[str], *, razz: bool
) -> list[str]:
    """The players who may be the bring-in while some up cards are unseen, in seat order.

    ``up_cards``: ``(player, up card)`` pairs in seat order, ``??`` for an up card nobody saw;
    ``seen``: the known cards dealt (an unseen up card is one of the 52 cards not among
    them). A player showing a card is one of them when no other shown card is lower (razz:
    higher, aces low); a player whose up card is unseen, when a card not in ``seen`` is lower
    than every other shown card (RULES.md §4.1: the lowest up card by suit brings it in; aces
    high in hi-lo too, CASINO-S8). With every up card shown, the one :func:`bring_in_player`
    names.
    """
    shown = [(p, _bring_in_key(c, razz)) for p, c in up_cards if c != UNKNOWN]
    unseen = [_bring_in_key(c, razz) for c in _ORDER if c not in seen]
    lowest_unseen = min(unseen) if unseen else None
    who: list[str] = []
    for player, card in up_cards:
        others = [k for p, k in shown if p != player]
        below = min(others) if others else None
        if card != UNKNOWN:
            mine: tuple[int, int] | None = _bring_in_key(card, razz)
        else:
            mine = lowest_unseen
        if mine is not None and (below is None or mine < below):
            who.append(player)
    return who


def _board_key(cards: Sequence[str], *, ace_low: bool) -> tuple[int, ...]:
    """Key of a partial board; higher = better high board: the counts of its ranks, most
    first, then those ranks (pairs and trips count, straights and flushes do not)."""
    values = _LOW_VALUES if ace_low else _VALUES
    try:
        ranks = [values[c[0]] for c in cards]
    except (KeyError, IndexError):
        bad = next(c for c in cards if c[:1] not in values)
        raise ValueError(f"{bad!r} is not a card") from None
    ranks.sort()
    ranks.reverse()  # highest first (compiled, sort() and reverse() are calls without keywords)
    for k in range(1, len(ranks)):
        if ranks[k] == ranks[k - 1]:
            break
    else:  # no pair (the common board): each rank once, highest first
        return tuple([1] * len(ranks) + ranks)
    groups = sorted([(ranks.count(r), r) for r in set(ranks)], reverse=True)  # (count, rank)
    return (*[n for n, _ in groups], *[r for _, r in groups])


def best_board_player(boards: Sequence[tuple[str, Sequence[str]]], *, razz: bool) -> str:
    """The player whose face-up cards rank best, from ``(player, up cards)`` in the order the
    cards were dealt; ties go to the first of them (RULES.md §4.1).

    High and hi-lo stud: the best high board. Razz: the best (lowest) ace-to-five board:
    fewest paired cards, then the lowest top card, and so on down.
    """
    if razz:  # lower is better in razz: negated, so the largest key is the best low
        keys = [tuple(-k for k in _board_key(up, ace_low=True)) for _, up in boards]
    else:
        keys = [_board_key(up, ace_low=False) for _, up in boards]
    return boards[keys.index(max(keys))][0]  # index() finds the first of ties


def _board_score(cards: Sequence[str], razz: bool) -> tuple[int, ...]:
    """Key of a partial board for who acts first; higher = better (razz: the lower board)."""
    if razz:
        return tuple(-k for k in _board_key(cards, ace_low=True))
    return _board_key(cards, ace_low=False)


def _board_range(up: Sequence[str], left: dict[str, int],
                 razz: bool) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The best and the worst score ``up`` may have, its unseen cards any ranks still unseen
    (``left``: how many cards of each rank are not known dealt); None when none can be."""
    known = [c for c in up if c != UNKNOWN]
    unknown = len(up) - len(known)
    scores: list[tuple[int, ...]] = []
    for ranks in combinations_with_replacement(_RANKS, unknown):
        if all(ranks.count(r) <= left[r] for r in set(ranks)):
            scores.append(_board_score([*known, *[r + "s" for r in ranks]], razz))
    if not scores:
        return None
    return max(scores), min(scores)


def best_board_candidates(boards: Sequence[tuple[str, Sequence[str]]], seen: Collection[str],
                          *, razz: bool) -> list[str]:
    """The players whose board may be the best while some up cards are unseen, in the order
    of ``boards``.

    ``boards``: ``(player, up cards)`` in the order the cards were dealt, ``??`` for an up
    card nobody saw; ``seen``: the known cards dealt (an unseen up card is one of the others).
    A player is one of them when the best his board may be beats the worst each other board
    may be, or ties it and he comes first (RULES.md §4.1: the best board acts first, ties by
    position; razz: the lowest board). Each board's unseen cards are counted against the
    cards seen, not against the other boards' unseen cards: a seat is left out only when no
    card could make it first. With every up card shown, the one :func:`best_board_player`
    names.
    """
    left = {r: 4 for r in _RANKS}
    for c in seen:
        if c[:1] in left:
            left[c[:1]] -= 1
    ranges: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for _, up in boards:
        span = _board_range(up, left, razz)
        if span is None:  # an unseen card no card can be (a reshuffled deck): anyone may
            return [p for p, _ in boards]
        ranges.append(span)
    who: list[str] = []
    for i, (player, _) in enumerate(boards):
        best = ranges[i][0]
        if all(best > ranges[j][1] or (best == ranges[j][1] and i < j)
               for j in range(len(boards)) if j != i):
            who.append(player)
    return who


def has_open_pair(cards: Sequence[str]) -> bool:
    """True when the face-up cards hold a pair of known cards (RULES.md §4.1, fourth street
    in high stud). An upcard nobody saw (``??``) pairs nothing: the rule is of a pair showing,
    and RULES.md says nothing of an unseen one, so two unseen upcards are no open pair."""
    ranks = [c[0] for c in cards if c != UNKNOWN]
    return len(set(ranks)) < len(ranks)
