"""A PokerNow log's buy-ins made before hands the ledger holds from a PHH export of the game.

PHH carries no book, so a ledger that imported another ledger's PHH export of a game first
holds its hands alone; the log imported after it brings the book, whose rows are appended
after those hands. A buy-in of the log made before one of them is then written as made before
that hand (``before``, as ``buyin --before HAND`` writes it: RULES.md §1.1), so that the books
count it where the table did, not after the hands its chips were played in
(:mod:`replay.ingest.carried_source`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from replay.ingest.carried_source import hands_carrying


def buy_ins_before_held(ledger: Any, read: FileRead, held_in: str | None) -> FileRead:
    """``read`` (a PokerNow log, items in log order) with each buy-in followed in the log by a
    hand that a stored hand of the same session carries the key of as ``_source_key``
    (:func:`replay.ingest.carried_source.hands_carrying`) given that stored hand as its
    ``before``; unchanged when there is none, or when ``held_in``, the session the ledger
    holds the game in (:func:`replay.ingest.file_reading.game_session`), is None (a new
    game: nothing asked). One query, whatever the number of hands."""
    if held_in is None:
        return read
    waiting: list[int] = []  # buy-ins since the last hand: their indexes in read.items
    after: dict[int, str] = {}  # a buy-in's index -> the key of the hand it comes before
    for n, item in enumerate(read.items):
        if (isinstance(item, SessionEntry) and item.event.type == "buy_in"
                and item.event.before is None):
            waiting.append(n)
        elif isinstance(item, HandEvents):
            after.update(dict.fromkeys(waiting, item.source_key))
            waiting = []
    held = hands_carrying(ledger, sorted(set(after.values())))
    if not held:
        return read
    items = list(read.items)
    for n, key in after.items():
        entry = items[n]
        assert isinstance(entry, SessionEntry)
        if key in held and held[key][1] == entry.session:
            items[n] = dataclasses.replace(
                entry, event=entry.event.model_copy(update={"before": held[key][0]}))
    return dataclasses.replace(read, items=items)
