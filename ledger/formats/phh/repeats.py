"""A hand id met again in one PHH file: a copy of the hand, or another hand (FORMATS.md §1).

A ``.phhs`` may give two tables the same id (``venue`` and ``hand``, or the same content of a
hand without one). When the later table is the same hand as an earlier one under that id —
the same game, the same players in the same seats, the same ``table`` when the file names
one, and no hole card dealt to a player there that the earlier table deals him otherwise
(cards unknown, ``??``, tell nothing), as an id-less copy is known by its deal
(:mod:`replay.ingest.samedeal`) — it is that hand again: the same content is the same hand
(the import counts it known, never a second hand), other content is refused naming both
lines (README: a change to a hand is a correction, never a second hand). A table that is
another hand keeps its own id, ``-2``, ``-3``, … in file order (two tables of a site that
reuses a number, HandHQ's tables of different ``table``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from typing import Any

from ledger.formats.phh.base import PhhHand
from ledger.formats.phh.fields import RawHand
from ledger.formats.phh.hand import build_hand
from ledger.model.errors import RepeatedHand
from ledger.model.shell import shell_arg

#: Keys of a table that say where it is, not what was played.
_PLACE = ("file", "section", "line", "source_key")


class HandIds:
    """Called with each hand built in file order, its table and a ``place`` (what
    ``reread`` gets its table from again): the hand under the id it keeps (its own, ``-N``
    for another hand under a repeated id). Only the ids met and their places are kept (a
    file of any size is never held hand by hand): an earlier table under a repeated id is
    built again, by ``reread(place)``, from the text the reader holds.

    Raises:
        RepeatedHand: the table is a hand met earlier in the file under its id, with other
            content (naming its line, the first key that differs and the earlier line): a
            rejected hand of its own, whatever became of the first.
    """

    def __init__(self, reread: Callable[[Any], RawHand]) -> None:
        self.reread = reread
        self.first: dict[str, Any] = {}  # id -> the place of the first table under it
        self.more: dict[str, list[tuple[str, Any]]] = {}  # id -> [(id kept, place)] after

    def __call__(self, hand: PhhHand, raw: RawHand, place: Any) -> PhhHand:
        first = self.first.get(hand.hand, _NONE)
        if first is _NONE:
            self.first[hand.hand] = place
            return hand
        earlier = [(hand.hand, first), *self.more.get(hand.hand, [])]
        for kept, where in earlier:
            old_raw = self.reread(where)
            old = build_hand(old_raw)
            old = replace(old, started=old.started.model_copy(update={"hand": kept}))
            if not same_hand(old, hand):
                continue
            if _content(old) == _content(hand):  # the import counts it known
                return replace(hand, started=hand.started.model_copy(update={"hand": kept}))
            raise _differs(old, old_raw, hand, raw)
        kept = f"{hand.hand}-{len(earlier) + 1}"
        self.more.setdefault(hand.hand, []).append((kept, place))
        return replace(hand, started=hand.started.model_copy(update={"hand": kept}))


def same_hand(a: PhhHand, b: PhhHand) -> bool:
    """Whether two tables under one id are one hand: game, players and their seats, the
    ``table`` key, and no known hole card of a player's first deal that differs."""
    if a.started.game != b.started.game or a.started.source.get("table") != \
            b.started.source.get("table"):
        return False
    if [(s.player, s.seat) for s in a.started.seats] != \
            [(s.player, s.seat) for s in b.started.seats]:
        return False
    holes_a, holes_b = _first_holes(a), _first_holes(b)
    for player, cards in holes_a.items():
        other = holes_b.get(player)
        if other is None or len(other) != len(cards):
            continue
        for k in range(0, len(cards), 2):
            x, y = cards[k:k + 2], other[k:k + 2]
            if "?" not in x + y and x != y:
                return False
    return True


def _first_holes(hand: PhhHand) -> dict[str, str]:
    """``{player (p1 …): the cards of his first deal}`` as the file writes them."""
    holes: dict[str, str] = {}
    for action in hand.actions:
        parts = action.text.split()
        if len(parts) >= 4 and parts[:2] == ["d", "dh"]:
            holes.setdefault(parts[2], parts[3])
    return holes


def _content(hand: PhhHand) -> str:
    """What was played, without where the table is: the same text for the same hand."""
    started = hand.started.model_dump(mode="json", exclude={"hand"})
    started["source"] = {k: v for k, v in started["source"].items() if k not in _PLACE}
    return json.dumps({
        "started": started,
        "actions": [action.text for action in hand.actions],
        "payouts": [[p.player, p.amount] for p in hand.payouts],
        "finishing_stacks": hand.finishing_stacks,
        "expected": repr(hand.expected),
    }, sort_keys=True, default=str)


def _differs(first: PhhHand, first_raw: RawHand, hand: PhhHand, raw: RawHand
             ) -> RepeatedHand:
    keys = list(raw.table) + [k for k in first_raw.table if k not in raw.table]
    key = next((k for k in keys if raw.table.get(k, _NONE) != first_raw.table.get(k, _NONE)),
               None)
    where = f"[{raw.section}] " if raw.section is not None else ""
    if key is None:  # the same keys and values, read otherwise (cannot be told apart here)
        what, line = "its content differs", raw.line
    else:
        what = (f"its {key} is {_text(raw.table.get(key, _NONE))} here, "
                f"{_text(first_raw.table.get(key, _NONE))} at line "
                f"{first_raw.keys.get(key, first.line)}")
        line = raw.keys.get(key, raw.line)
    return RepeatedHand(
        f"{where}hand {first.hand} is also at line {first.line} of this file, the same game "
        f"and players in the same seats, and this copy differs from it: {what}; a hand is "
        f"recorded once, and a change to it is a correction (`handledger correct "
        f"{shell_arg(first.hand)} ...`), never a second hand",
        file=raw.file, hand=first.hand, line=line)


_NONE = object()


def _text(value: Any, width: int = 48) -> str:
    """A TOML value as the file could write it, cut short."""
    text = "none" if value is _NONE else _toml(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return str(value)
