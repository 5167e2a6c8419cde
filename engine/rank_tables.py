"""The snapshot of pokerkit's five-card rankings that :mod:`engine.evaluate` reads (data, not
code): for each lookup, pokerkit's entry of every memo key a five-card hand can have.

``python -m engine.rank_tables [FOLDER]`` writes one JSON file a lookup (default: the
``engine/ranks`` folder, which the package installs): ::

    {"lookup": "high", "source": "pokerkit StandardHighHand.lookup",
     "labels": [["HIGH_CARD", "High card"], ...],   pokerkit's Label names and texts
     "keys": [...],      every memo key, ascending (engine.evaluate.memo_key)
     "index": [...],     pokerkit's entry index of each key, null where it has no entry
     "label": [...]}     the position in "labels" of each key's entry label, null likewise

A memo key is the product of the five cards' rank primes shifted left once, or-ed with 1 when
the five are of one suit: every multiset of five ranks with at most four of a rank, suited
only when the five ranks differ (the short deck's ranks, six to ace, for ``short``).
pokerkit answers from the ranks and that suitedness alone, so one hand of each key asks it
for all. Badugi (suits matter, four cards) is not in the snapshot: it asks pokerkit itself.

tests/test_rank_tables.py regenerates every file from pokerkit and compares it, key for key,
with the committed one. Not compiled (setup.py): the evaluator never imports it.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from engine.evaluate import TABLE_FILES, memo_key, pokerkit_entry

#: The pokerkit lookup behind each snapshot (engine/evaluate.py ``_lib``), for the file's
#: ``source``.
SOURCES = {"high": "StandardHighHand.lookup", "short": "ShortDeckHoldemHand.lookup",
           "A-5": "RegularLowHand.lookup", "A-5/8": "EightOrBetterLowHand.lookup",
           "2-7": "StandardLowHand.lookup", "A-6": "Standard2Lookup over RankOrder.REGULAR"}
_RANKS = "23456789TJQKA"
_SUITS = "cdhs"


def hands(lookup: str) -> Iterator[tuple[str, ...]]:
    """One five-card hand (our card strings) of every memo key of ``lookup``: each rank
    multiset unsuited, and suited too when its five ranks differ."""
    ranks = _RANKS[4:] if lookup == "short" else _RANKS
    for multiset in combinations_with_replacement(ranks, 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        if len(counts) == 5:
            yield tuple(r + s for r, s in zip(multiset, "ccccd", strict=True))
            yield tuple(r + "s" for r in multiset)
        else:  # the n-th card of a rank in the n-th suit: never five of one suit
            yield tuple(r + _SUITS[n] for r, c in counts.items() for n in range(c))


def snapshot(lookup: str) -> dict[str, Any]:
    """The snapshot of ``lookup`` (a name of :data:`engine.evaluate.TABLE_FILES`), asked of
    pokerkit, as written to its file."""
    from pokerkit.lookups import Label

    labels = list(Label)
    entries = {memo_key(hand): pokerkit_entry(lookup, hand) for hand in hands(lookup)}
    keys = sorted(entries)
    return {"lookup": lookup, "source": f"pokerkit {SOURCES[lookup]}",
            "labels": [[label.name, label.value] for label in labels],
            "keys": keys,
            "index": [None if entries[k] is None else entries[k][0] for k in keys],
            "label": [None if entries[k] is None else labels.index(entries[k][1])
                      for k in keys]}


def render(data: dict[str, Any]) -> str:
    """The file's text: one line a field, compact."""
    fields = (f"{json.dumps(name)}:{json.dumps(value, separators=(',', ':'))}"
              for name, value in data.items())
    return "{\n" + ",\n".join(fields) + "\n}\n"


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent / "ranks"
    folder.mkdir(parents=True, exist_ok=True)
    for lookup, name in TABLE_FILES.items():
        data = snapshot(lookup)
        (folder / name).write_text(render(data), encoding="utf-8")
        print(f"{folder / name}: {len(data['keys'])} keys")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
