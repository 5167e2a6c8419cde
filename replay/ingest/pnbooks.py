"""A JSON-lines session book of a PokerNow game the ledger holds in another session.

A PokerNow game makes its own session (FORMATS.md §2): its opening, joins, buy-ins and
cash-outs. Another ledger's JSON-lines export of that game carries each of those rows with the
source key the game's log gave it (``pokernow:<session>:opened``,
``pokernow:<session>:<game>:item:…``, FORMATS.md §1, JSON lines) and each hand with the
PokerNow key of its hand, whatever the session was named there. Imported into a ledger that
holds the game under another session name, its hands are known (they stay where they are
stored) but its book would open a second session and buy every player in again: the file is
refused as the game's log is under ``--session`` (:func:`replay.ingest.file_reading.
read_file`). A session book of rows a command wrote (a session recorded by hand) carries no
such key and goes in as before.
"""

from __future__ import annotations

from typing import Any

from ledger.formats.reading import FileRead, HandEvents, SessionEntry
from ledger.model.errors import MalformedInput
from replay.ingest.keyed import hands_keyed

_PREFIX = "pokernow:"


def refuse_game_elsewhere(ledger: Any, read: FileRead) -> None:
    """Refuse the JSON-lines file ``read`` when a session of it has a book keyed by a PokerNow
    game (a row whose source key begins ``pokernow:<session>:``) that the ledger holds in
    another session: by an entry of the game's book there (the game's digest in its key), or
    by a PokerNow hand of the file's session stored there. The sessions are taken in file
    order; the ledger's own export (the same session name) passes. Reads the ledger twice at
    most, whatever the number of sessions.

    Raises:
        MalformedInput: naming the file, the line of the session's first row, the session
            the ledger holds the game in and the file's session, as the log's refusal says
            it (its buy-ins would count twice); nothing of the file is written.
    """
    books = _pokernow_books(read)
    if not books:
        return
    games = _games_held(ledger)
    hands = _hands_held(ledger, read, {s for s, _ in books})
    for session, line in books:
        scope = f"{_PREFIX}{session}:"
        digests = {k.removeprefix(scope).split(":item:")[0] for i in read.items
                   if isinstance(i, SessionEntry) and i.session == session
                   and (k := i.source_key).startswith(scope) and ":item:" in k}
        held = [games[d] - {session} for d in sorted(digests) if d in games]
        held.append(hands.get(session, set()) - {session})
        stored = next((min(h) for h in held if h), None)
        if stored is not None:
            raise MalformedInput(
                f"this PokerNow game is in the ledger already, in session {stored}: it is "
                f"not imported into session {session} too (its buy-ins would count twice); "
                "nothing of the file was written", file=read.file, line=line, session=session)


def _pokernow_books(read: FileRead) -> list[tuple[str, int]]:
    """Each session of ``read`` with a row keyed by a PokerNow game, and the line of its
    first row, in file order."""
    first: dict[str, int] = {}
    games: set[str] = set()
    for item in read.items:
        if not isinstance(item, SessionEntry):
            continue
        first.setdefault(item.session, item.line)
        if item.source_key.startswith(f"{_PREFIX}{item.session}:"):
            games.add(item.session)
    return [(s, line) for s, line in first.items() if s in games]


def _games_held(ledger: Any) -> dict[str, set[str]]:
    """Each PokerNow game digest of the ledger's book entries (``…:<digest>:item:…``, of
    :mod:`ledger.formats.pokernow.importer`, or an earlier version's) and the sessions
    holding it."""
    rows = ledger.query(
        "SELECT DISTINCT regexp_extract(source_key, ':([0-9a-f]{16}):item:', 1), session"
        " FROM events WHERE hand_id IS NULL AND starts_with(source_key, $1)"
        " AND contains(source_key, ':item:') AND session IS NOT NULL", [_PREFIX])
    out: dict[str, set[str]] = {}
    for digest, session in rows:
        if digest:
            out.setdefault(digest, set()).add(session)
    return out


def _hands_held(ledger: Any, read: FileRead, sessions: set[str]) -> dict[str, set[str]]:
    """For each of ``sessions``, the sessions in which the ledger holds a PokerNow hand
    (by its source key) that ``read`` gives in it."""
    mine = {i.source_key: i.session for i in read.items if isinstance(i, HandEvents)
            and i.session in sessions and i.source_key.startswith(_PREFIX)}
    if not mine:
        return {}
    out: dict[str, set[str]] = {}
    for key, (_, session) in hands_keyed(ledger, mine).items():
        if session is not None:
            out.setdefault(mine[key], set()).add(session)
    return out
