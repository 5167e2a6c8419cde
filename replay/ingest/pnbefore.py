"""A PokerNow log's buy-ins made before hands the ledger holds from a PHH export of the game.

PHH carries no book, so a ledger that imported another ledger's PHH export of a game first
holds its hands alone; the log imported after it brings the book, whose rows are appended
after those hands. Into a session opened before them, a buy-in of the log made before one of
them is then written as made before that hand (``before``, as ``buyin --before HAND`` writes
it: RULES.md §1.1), so that the books count it where the table did, not after the hands its
chips were played in (:mod:`replay.ingest.carried_source`). A session the log opens itself,
after the hands, takes its buy-ins at their place (none can count before its opening).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from replay.ingest.carried_source import hands_carrying


def buy_ins_before_held(ledger: Any, read: FileRead, held_in: str | None) -> FileRead:
    """``read`` (a PokerNow log, items in log order) with each buy-in followed in the log by a
    hand that a stored hand of the same session carries the key of as ``_source_key``
    (:func:`replay.ingest.carried_source.hands_carrying`), stored after the session was
    opened, given that stored hand as its ``before``; unchanged when there is none, or when
    ``held_in``, the session the ledger holds the game in
    (:func:`replay.ingest.file_reading.game_session`), is None (a new game: nothing asked).
    Two queries at most, whatever the number of hands."""
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
    opened = _opened_before(ledger, [hand for hand, _ in held.values()])
    items = list(read.items)
    for n, key in after.items():
        entry = items[n]
        assert isinstance(entry, SessionEntry)
        if key in held and held[key][1] == entry.session and held[key][0] in opened:
            items[n] = dataclasses.replace(
                entry, event=entry.event.model_copy(update={"before": held[key][0]}))
    return dataclasses.replace(read, items=items)


def _opened_before(ledger: Any, hands: list[str]) -> set[str]:
    """Those of the stored ``hands`` whose session the ledger opened before them: a buy-in
    counts before such a hand; one before a hand stored ahead of its session's opening (the
    log brings the opening, after the hands) stays at its place, after that opening."""
    rows = ledger.query(
        "SELECT h.hand_id FROM events h JOIN events o ON o.session = h.session AND o.type ="
        " 'session_opened' AND o.position < h.position WHERE h.seq = 1 AND h.type ="
        " 'hand_started' AND h.hand_id IN (SELECT UNNEST(?))", [hands])
    return {hand for hand, in rows}
