"""Could the recorded payouts be a legal split of the pots? (unknown hole cards)

When a showdown cannot be computed, the payouts are checked instead: every
pot paid in full, only to its eligible players, as a legal split — one winner, or an even
split among tied winners with odd chips one each (RULES.md §2.1: each the smallest chip in
play, ``chip`` chips), or in a hi-lo game a high half and a low half each split that way
(§2.3). A depth-first search over the pots decides it;
the search is bounded, and an undecided case is reported as such, never as feasible.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from engine.awards import divide

LIMIT = 200_000


def even_splits(amount: int, players: Sequence[str], chip: int = 1
                ) -> Iterator[dict[str, int]]:
    """Every way ``amount`` chips split evenly among a non-empty subset of ``players``, odd
    chips of ``chip`` chips one each (:func:`engine.awards.divide`): with a chip of 1,
    ``amount // m`` each and one odd chip each to ``amount % m`` of them.

    >>> sorted(tuple(sorted(d.items())) for d in even_splits(3, ["a", "b"]))
    [(('a', 1), ('b', 2)), (('a', 2), ('b', 1)), (('a', 3),), (('b', 3),)]
    >>> sorted(tuple(sorted(d.items())) for d in even_splits(15, ["a", "b"], 5))
    [(('a', 5), ('b', 10)), (('a', 10), ('b', 5)), (('a', 15),), (('b', 15),)]
    """
    for m in range(1, len(players) + 1):
        base = amount // (m * chip) * chip  # as divide() cuts it
        odd, part = divmod(amount - base * m, chip)  # part: below a chip (not whole chips)
        for group in combinations(players, m):
            for lucky in combinations(group, odd):
                rest = [p for p in group if p not in lucky] if part else [None]
                for partial in rest:
                    yield {p: base + (chip if p in lucky else part if p == partial else 0)
                           for p in group}


def pot_splits(amount: int, eligible: Sequence[str], *, hilo: bool, chip: int = 1
               ) -> Iterator[dict[str, int]]:
    """Legal ways to pay one pot: an even split, or (hi-lo) a high half and a low half each
    split evenly (the high half takes the odd chip, RULES.md §2.2), odd chips of ``chip``."""
    yield from even_splits(amount, eligible, chip)
    high, low = divide(amount, 2, chip)
    if not hilo or not low:
        return
    for h in even_splits(high, eligible, chip):
        for lo in even_splits(low, eligible, chip):
            merged = dict(h)
            for p, c in lo.items():
                merged[p] = merged.get(p, 0) + c
            yield merged


def split_exists(
    pots: Sequence[tuple[int, Sequence[str]]], need: Mapping[str, int], *, hilo: bool,
    chip: int = 1,
) -> bool | None:
    """True when some legal split of ``pots`` ((amount, eligible) each) pays exactly ``need``
    (chips per player), odd chips of ``chip`` chips (the smallest chip in play, RULES.md
    §2.1); False when none does; None when the search limit was reached."""
    budget = [LIMIT]
    order = sorted(pots, key=lambda p: len(p[1]))

    def search(i: int, left: dict[str, int]) -> bool | None:
        if i == len(order):
            return all(v == 0 for v in left.values())
        amount, eligible = order[i]
        undecided = False
        for split in pot_splits(amount, eligible, hilo=hilo, chip=chip):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if any(left.get(p, 0) < c for p, c in split.items()):
                continue
            nxt = dict(left)
            for p, c in split.items():
                nxt[p] -= c
            found = search(i + 1, nxt)
            if found:
                return True
            undecided = undecided or found is None
        return None if undecided else False

    if sum(need.values()) != sum(a for a, _ in pots) or any(v < 0 for v in need.values()):
        return False
    return search(0, dict(need))
