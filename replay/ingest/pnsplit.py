"""A PokerNow game the ledger holds from an export that lacked its oldest rows.

A game is known by its oldest row (FORMATS.md §2: the log grows at its top, newest first), or
by its first hand (:func:`replay.ingest.pipeline.game_session`). An export cut at the bottom
(the game's first rows missing: its joins and first hands) stored first is another game to
that test, so the whole log imported after it would open a second session for the same game:
its first hands and buy-ins there, the hands both hold left where the cut export put them,
each session's books wrong. FORMATS.md gives no way to join the two, so the whole log is
refused (README, Formats: PokerNow).
"""

from __future__ import annotations

from typing import Any

from ledger.formats.reading import FileRead, HandEvents
from ledger.model.errors import MalformedInput


def refuse_split_game(ledger: Any, read: FileRead) -> None:
    """Refuse the PokerNow log ``read``, a game the ledger does not know by its oldest row
    or its first hand, when the ledger holds some of its hands (by source key) all the same.

    Raises:
        MalformedInput: one line naming the file, the session the stored hands are in, how
            many they are and the first of them, and what to do; nothing is written.
    """
    keys = [i.source_key for i in read.items if isinstance(i, HandEvents)]
    if not keys:
        return
    rows = ledger.query(
        "SELECT session, hand_id FROM events WHERE seq = 1 AND hand_id IS NOT NULL"
        " AND source_key IN (SELECT UNNEST(?)) ORDER BY position", [keys])
    if not rows:
        return
    session, first = rows[0]
    where = f"session {session}" if session is not None else "no session"
    raise MalformedInput(
        f"{len(rows)} of this PokerNow log's hands are in the ledger already, in {where} "
        f"(the first: {first}), from an export of the same game that lacked its oldest rows: "
        "the log would open a second session for the game, and the ledger cannot join the "
        "two; nothing of the file was written (import the whole log into a new ledger, or "
        "record the buy-ins the stored export lacks with `handledger buyin "
        f"{session or 'SESSION'} PLAYER CHIPS`)", file=read.file)
