"""A session book's buy-ins made before hands the ledger holds from a PHH export of them.

PHH carries no book, so a ledger that imported another ledger's PHH export first holds its
hands alone; a file imported after it that brings the book (a PokerNow log, or the JSON-lines
export of the same ledger) has its rows appended after those hands. Into a session opened
before them, a buy-in of the file made before one of them is then written as made before
that hand (``before``, as ``buyin --before HAND`` writes it: RULES.md §1.1), so that the
books count it where the table did, not after the hands its chips were played in
(:mod:`replay.ingest.carried_source`). A session a PokerNow log opens itself, after the
hands, takes its buy-ins at their place (none can count before its opening, and a ledger
whose export put one there could not be imported back), and the log is refused whole when a
line of it would be stored after a held hand it came before
(:func:`replay.ingest.pnunopened.refuse_book_after_held`); a JSON-lines book that would open
the session after the hands its buy-ins paid for is refused whole instead
(:func:`book_before_held`): the export carries those hands too, so a new ledger takes it
with its books as they were.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.errors import MalformedInput
from ledger.model.shell import shell_arg
from replay.ingest.carried_source import SITE_PREFIXES, hands_carrying

#: ``held(hands of the file)``: ``{file hand id: (stored hand id, its session)}`` of those
#: the ledger holds.
Held = Callable[[list[HandEvents]], dict[str, tuple[str, str | None]]]


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

    def held(hands: list[HandEvents]) -> dict[str, tuple[str, str | None]]:
        found = hands_carrying(ledger, sorted({h.source_key for h in hands}))
        return {h.hand_id: found[h.source_key] for h in hands if h.source_key in found}

    return _given_before(ledger, read, held, {})[0]


def book_before_held(ledger: Any, read: FileRead) -> FileRead:
    """``read`` (a JSON-lines file, items in file order) with each of its buy-ins the ledger
    does not store yet (its session stream has no row at its seq) that the file gives before
    a hand the ledger holds in the same session (by the hand's id, or as a PHH hand carrying
    its site key as ``_source_key``), stored after the session was opened, given that stored
    hand as its ``before`` (:func:`buy_ins_before_held`); a stored one given it so already
    gets it again (the file read again is the ledger's rows). Three queries at most; none
    for a file without session rows.

    Raises:
        MalformedInput: such a buy-in of a session the ledger holds hands of but never
            opened (the file's own opening would come after them, and a buy-in cannot count
            before a session's opening): naming the file, the buy-in's line and session, the
            hand, and what to do (import the file into a new ledger); nothing is written.
    """
    sessions = sorted({i.session for i in read.items if isinstance(i, SessionEntry)})
    if not sessions:
        return read
    stored = {(session, seq): before for session, seq, before in ledger.query(
        "SELECT session, seq, json_extract_string(payload, '$.before') FROM events WHERE"
        " hand_id IS NULL AND session IN (SELECT UNNEST(?))", [sessions])}

    def held(hands: list[HandEvents]) -> dict[str, tuple[str, str | None]]:
        out = {hand: (hand, session) for hand, session in ledger.query(
            "SELECT hand_id, session FROM events WHERE seq = 1 AND type = 'hand_started'"
            " AND hand_id IN (SELECT UNNEST(?))", [sorted({h.hand_id for h in hands})])}
        site = [h for h in hands if h.hand_id not in out and h.source_key.startswith(
            SITE_PREFIXES)]
        found = hands_carrying(ledger, sorted({h.source_key for h in site}))
        out.update({h.hand_id: found[h.source_key] for h in site if h.source_key in found})
        return out

    read, unopened = _given_before(ledger, read, held, stored)
    if unopened:
        entry, hand = unopened[0]
        raise MalformedInput(
            f"its buy_in at seq {entry.seq} ({entry.event.player}, {entry.event.chips} chips) "
            f"was made before hand {hand}, which the ledger holds already in session "
            f"{entry.session}, a session it never opened (the hands came without their book: "
            "a PHH file carries none): this file would open it after them, and a buy-in counts "
            "only after the session's opening, so its buy-ins would count after the hands "
            "they paid for; the file carries those hands too: import it into a new ledger "
            f"(`handledger --db NEW.duckdb import {shell_arg(read.file)}`); nothing of the "
            "file was written", file=read.file, line=entry.line, session=entry.session)
    return read


def _given_before(ledger: Any, read: FileRead, held: Held,
                  stored: dict[tuple[str, int], str | None]
                  ) -> tuple[FileRead, list[tuple[SessionEntry, str]]]:
    """``read`` with each buy-in without ``before`` followed in the file by a hand ``held``
    finds in the buy-in's session, stored after that session was opened, given that stored
    hand as its ``before``; and the ``(buy-in, stored hand)`` pairs whose session the ledger
    holds no opening of at all. ``stored``: ``{(session, seq): before}`` of the rows the
    ledger holds: such a row keeps what it was stored with."""
    waiting: list[int] = []  # buy-ins since the last hand: their indexes in read.items
    after: dict[int, HandEvents] = {}  # a buy-in's index -> the hand it comes before
    for n, item in enumerate(read.items):
        if (isinstance(item, SessionEntry) and item.event.type == "buy_in"
                and item.event.before is None):
            waiting.append(n)
        elif isinstance(item, HandEvents):
            after.update(dict.fromkeys(waiting, item))
            waiting = []
    found = held(list({h.hand_id: h for h in after.values()}.values())) if after else {}
    if not found:
        return read, []
    opened, never = opened_before(ledger, [hand for hand, _ in found.values()])
    items, unopened = list(read.items), []
    for n, hand in after.items():
        entry = items[n]
        assert isinstance(entry, SessionEntry)
        stored_hand, session = found.get(hand.hand_id, (None, None))
        if stored_hand is None or session != entry.session:
            continue
        key = (entry.session, entry.seq)
        if key in stored:  # the ledger's row: as it was stored
            give = stored[key] == stored_hand  # type: ignore[index]
        else:
            give = stored_hand in opened
            if not give and session in never:
                unopened.append((entry, stored_hand))
        if give:
            items[n] = dataclasses.replace(
                entry, event=entry.event.model_copy(update={"before": stored_hand}))
    return dataclasses.replace(read, items=items), unopened


def opened_before(ledger: Any, hands: list[str]) -> tuple[set[str], set[str]]:
    """Those of the stored ``hands`` whose session the ledger opened before them (a buy-in
    counts before such a hand; one before a hand stored ahead of its session's opening stays
    at its place, after that opening), and the sessions of ``hands`` it never opened."""
    rows = ledger.query(
        "SELECT h.hand_id, h.session, bool_or(o.position < h.position), count(o.position)"
        " FROM events h LEFT JOIN events o ON o.session = h.session AND o.type ="
        " 'session_opened' WHERE h.seq = 1 AND h.type = 'hand_started' AND h.hand_id IN"
        " (SELECT UNNEST(?)) GROUP BY h.hand_id, h.session", [hands])
    return ({hand for hand, _, before, _ in rows if before},
            {session for _, session, _, openings in rows if not openings})
