"""A PokerNow game imported into a session that holds another PokerNow game already.

Two games in one session may be meant (two tables of one evening), so the import is not
refused; but it is said at once, in one ``warning:`` line (:func:`shared_session_warning`):
both games' buy-ins and hands count in the one session's books (RULES.md §1.1), and the
ledger cannot move a game to another session afterwards (README, ``session void``: the voided
game stays known, so its log is refused under another session).
"""

from __future__ import annotations

import json
from typing import Any

from ledger.formats.reading import FileRead, HandEvents
from replay.ingest.report import ImportReport


def shared_session_warning(ledger: Any, read: FileRead, *, game: bool = True) -> str | None:
    """The warning line (without ``warning:``) of the PokerNow log ``read``, as read for its
    import (``read.session`` the session it goes to), when that session holds hands of
    another PokerNow game: the game of ``read`` is not in the ledger
    (:func:`replay.ingest.file_reading.game_session`), and a hand of the session read from a
    PokerNow log is none of the file's. The line names the file (as given), the session, the
    other game's first hand (and its file as its source recorded it), what it means and what
    to do if it was a mistake. None otherwise: a re-import of the same game, a longer export
    of it, a first import, a session of JSON-lines or PHH hands only, and a file that is no
    PokerNow log (not ``game``: JSON lines, PHH). Reads only."""
    from replay.ingest.file_reading import game_session

    session = read.session
    if not game or session is None or game_session(ledger, read) is not None:
        return None
    mine = [i.source_key for i in read.items if isinstance(i, HandEvents)]
    rows = ledger.query(
        "SELECT hand_id, CAST(payload->'source' AS VARCHAR) FROM events"
        " WHERE session = $1 AND seq = 1 AND hand_id IS NOT NULL"
        " AND starts_with(source_key, 'pokernow:')"
        " AND source_key NOT IN (SELECT UNNEST($2)) ORDER BY position LIMIT 1",
        [session, mine])
    if not rows:
        return None
    hand, source = rows[0]
    file = json.loads(source or "{}").get("file")
    other = f"its first hand {hand}" + (f", from {file}" if file else "")
    return (
        f"{read.file}: this PokerNow game goes into session {session}, which holds another "
        f"PokerNow game already ({other}): both games' buy-ins and hands count in "
        f"{session}'s books; if that is a mistake, this ledger cannot move the game to "
        f"another session (`session void {session}` takes both games back, and the log is "
        "refused under another session then): import each log into a new ledger with its own "
        "--session (`handledger --db NEW import --session S FILE`) before anything else is "
        "recorded here")


def said_first(part: ImportReport, line: str | None) -> None:
    """Put the warning ``line`` (:func:`shared_session_warning`; None: nothing to say) first
    among ``part``'s warnings, counted as ``part.shared``, when the file's write wrote
    anything (``part.events``): a file refused says only why."""
    if line is not None and part.events:
        part.warnings.insert(0, line)
        part.shared += 1
