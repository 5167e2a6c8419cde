"""A PokerNow export that lacks its game's oldest rows (FORMATS.md §2: a log grows at its top).

Its first hands seat players with chips no line of the log bought: each is a
``stack_continuity`` finding of the audit, so each is a ``warning:`` line of the import
(:func:`unbought_stacks`; README, Formats: PokerNow). And such an export, stored first,
leaves the ledger unable to know the whole log as the same game (:func:`refuse_split_game`).

A game is known by its oldest row (FORMATS.md §2: the log grows at its top, newest first), or
by its first hand (:func:`replay.ingest.file_reading.game_session`). An export cut at the bottom
(the game's first rows missing: its joins and first hands) stored first is another game to
that test, so the whole log imported after it would open a second session for the same game:
its first hands and buy-ins there, the hands both hold left where the cut export put them,
each session's books wrong. FORMATS.md gives no way to join the two, so the whole log is
refused (README, Formats: PokerNow).
"""

from __future__ import annotations

from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.errors import MalformedInput, StoredFinding
from ledger.model.events import BuyIn, CashOut, Payment, PlayerAlias, SeatChange
from ledger.model.shell import shell_arg


def unbought_stacks(ledger: Any, read: FileRead) -> None:
    """Add to ``read.errors`` (a PokerNow log's) a :class:`StoredFinding` for each player
    seated with chips in a hand of the log before any line of it seats him or moves his
    money (a join, a buy-in, a cash-out, a payment) and whom the ledger does not hold in the
    hand's session already (a hand or a line of the book there, an id the game changed known
    by the player it was): a stack nobody bought, as
    the audit's ``stack_continuity`` finds it (RULES.md §1.1). The hand is stored as logged;
    the finding is its ``warning:`` line (FORMATS.md §2)."""
    from ledger.formats.pokernow.model import amounts_said

    unit = amounts_said(read.extra.get("decimals") or 0)
    names: dict[str, str] = {}
    named: dict[str | None, set[str]] = {}
    for item in read.items:
        if isinstance(item, SessionEntry):
            event = item.event
            if isinstance(event, PlayerAlias):
                names[event.player] = event.alias
            elif isinstance(event, BuyIn | CashOut | SeatChange | Payment):
                people = (event.payer, event.payee) if isinstance(event, Payment) else (
                    event.player,)
                named.setdefault(item.session, set()).update(p for p in people if p)
            continue
        if not isinstance(item, HandEvents):
            continue
        started = item.events[0]
        session = item.session or started.session
        if session not in named:
            named[session] = held_players(ledger, session)
        seen = named[session]
        for seat in started.seats:
            name = names.get(seat.player)  # an id the game changed: the player it was
            if seat.player not in seen and name not in seen and seat.stack:
                shown = f"{name} ({seat.player})" if name and name != seat.player else seat.player
                read.errors.append(StoredFinding(
                    f"{shown} starts with {seat.stack} but has no buy-in: no line of the log "
                    f"seats {shown} before this hand (an export that lacks the game's oldest "
                    f"rows?){unit}", file=read.file, line=item.line, hand=item.hand_id))
        seen.update(seat.player for seat in started.seats)


def held_players(ledger: Any, session: str | None) -> set[str]:
    """The players the ledger holds in ``session``: seated in a hand of it, or named by a
    line of its book (none for no session)."""
    if session is None:
        return set()
    from ledger.store.streams import seated_in

    rows = ledger.query(
        "SELECT DISTINCT json_extract_string(payload, '$.player'),"
        " json_extract_string(payload, '$.alias') FROM events"
        " WHERE session = ? AND hand_id IS NULL", [session])  # an alias: both its names
    return seated_in(ledger, session) | {p for row in rows for p in row if p}


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
        "two; nothing of the file was written (import the whole log into a new ledger; a "
        f"`handledger buyin {shell_arg(session or 'SESSION')} PLAYER CHIPS` recorded now counts "
        "only "
        "for hands after it, not for the stored export's first hands)", file=read.file)
