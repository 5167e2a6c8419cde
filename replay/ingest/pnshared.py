"""A PokerNow game imported into a session that holds another PokerNow game already.

Two games in one session may be meant (two tables of one evening), so the import is not
refused; but it is said at once, in one ``warning:`` line (:func:`shared_session_warning`):
both games' buy-ins and hands count in the one session's books (RULES.md §1.1), and the
ledger cannot move a game to another session afterwards (README, ``session void``: the voided
game stays known, so its log is refused under another session). A game whose every hand in
the session is voided (``session void``, ``void``) counts no hand there: nothing to say. Two
logs of one file name imported without ``--session`` land in one session, named after that
file name (:func:`ledger.formats.pokernow.log.default_session`): the line says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ledger.formats.reading import FileRead, HandEvents
from replay.ingest.report import ImportReport


def shared_session_warning(ledger: Any, read: FileRead, *, named: bool) -> str | None:
    """The warning line (without ``warning:``) of the PokerNow log ``read`` of a game the
    ledger does not hold (:func:`replay.ingest.file_reading.game_session` found none: its
    caller, :func:`replay.ingest.file_reading.read_file`, asked once), as read for its
    import (``read.session`` the session it goes to), when that session holds a hand, not
    voided, of another PokerNow game (a hand read from a PokerNow log, none of the file's).
    ``named``: the session was given (``import --session``); else it is the one the file's
    name gives the log (:func:`ledger.formats.pokernow.log.default_session`), which the line
    says, and that the other game's log had the same file name when it had. The line names
    the file (as given), the session, the other game's first hand not voided (and its file
    as its source recorded it), what it means and what to do if it was a mistake. None
    otherwise: a first import, a session whose other PokerNow hands are all voided, a
    session of JSON-lines or PHH hands only. Reads only."""
    session = read.session
    if session is None:
        return None
    mine = [i.source_key for i in read.items if isinstance(i, HandEvents)]
    rows = ledger.query(
        "SELECT hand_id, CAST(payload->'source' AS VARCHAR) FROM events"
        " WHERE session = $1 AND seq = 1 AND hand_id IS NOT NULL"
        " AND starts_with(source_key, 'pokernow:')"
        " AND source_key NOT IN (SELECT UNNEST($2)) ORDER BY position",
        [session, mine])
    from replay.ingest.known_hands import voided_of

    voided = voided_of(ledger, [hand for hand, _ in rows])
    standing = [(k, hand, source) for k, (hand, source) in enumerate(rows)
                if hand not in voided]
    if not standing:
        entry = _entry_standing(ledger, session) if rows else None
        if entry is None:
            return None
        other = (f"its hands all voided, from {rows[0][0]} on, but its "
                 f"{entry[1].replace('_', '-')} at entry {entry[0]} not retracted")
        source = None  # its file said with its first hand only
    else:
        k, hand, source = standing[0]
        other = f"its first hand {hand}" if k == 0 else f"its first hand not voided, {hand}"
    file = json.loads(source or "{}").get("file")
    if file:
        same = not named and file == Path(read.file).name
        other += f", from {file}" + (", a log of the same file name" if same else "")
    goes = (f"session {session}," if named else
            f"session {session}, the session its file's name gives it (no --session given),")
    return (
        f"{read.file}: this PokerNow game goes into {goes} which holds another "
        f"PokerNow game already ({other}): both games' buy-ins and hands count in "
        f"{session}'s books; if that is a mistake, this ledger cannot move the game to "
        f"another session (`session void {session}` takes both games back, and the log is "
        "refused under another session then): import each log into a new ledger with its own "
        "--session (`handledger --db NEW import --session S FILE`) before anything else is "
        "recorded here")


def _entry_standing(ledger: Any, session: str) -> tuple[int, str] | None:
    """``(seq, type)`` of the first buy-in or cash-out of ``session`` read from a PokerNow
    log that no ``entry_corrected`` retracts (the session's stream folded as the books fold
    it: :func:`replay.sessions.state.fold_rows`), or None: a game whose hands are all voided
    still counts in the books by its entries (``void`` takes back hands, ``session void``
    the entries too)."""
    from ledger.model.errors import NotFound
    from replay.sessions.state import fold_rows

    try:
        rows = ledger.read(f"session:{session}")
    except NotFound:  # hands of a session with no book of its own: no entry
        return None
    retracted = fold_rows([(r.seq, r.event) for r in rows]).retracted
    return next(((r.seq, r.event.type) for r in rows
                 if r.event.type in ("buy_in", "cash_out") and r.seq not in retracted
                 and (r.source_key or "").startswith("pokernow:")), None)


def said_first(part: ImportReport, line: str | None) -> None:
    """Put the warning ``line`` (:func:`shared_session_warning`; None: nothing to say) first
    among ``part``'s warnings, counted as ``part.shared``, when the file's write wrote
    anything (``part.events``): a file refused says only why."""
    if line is not None and part.events:
        part.warnings.insert(0, line)
        part.shared += 1
