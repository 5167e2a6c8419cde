"""``import --session``: the session checked before any file is read (opened and not closed, or
one a file of the import can open), and a file that opens another session refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ledger.formats.files import check_file
from ledger.formats.reading import FileRead, SessionEntry
from ledger.model.errors import (
    LedgerError,
    MalformedInput,
    NotFound,
)
from replay.ingest.registry import find_importer

#: The formats whose files carry a session's book and may open the session they import into.
_BOOK_FORMATS = ("jsonl", "pokernow")


def check_session_first(ledger: Any, session: str, files: Sequence[Path], *,
                         closed: bool = False) -> None:
    """Refuse ``import --session`` once, before any file is read, when the session is
    closed (RULES.md §1.1: no file reopens it, so every file would be refused: nothing is
    written, README "A closed session takes no more hands"; ``closed``: a file may still go
    on with a hand it holds, :mod:`replay.ingest.closed`), or not opened (no such
    session, a typo: :func:`replay.sessions.open_state` names the closest) and no file
    among ``files`` is of a format that could open it (JSON lines, a PokerNow log). When
    one could, a new session name that differs only in case from (or prints like) one the
    ledger holds is refused.

    Raises:
        NotFound, LedgerError: as :func:`replay.sessions.open_state` (a closed session's
            naming the files: :func:`files_named`); MalformedInput: a look-alike of a
            session of the ledger.
    """
    from replay.sessions import check_new_session_name, open_state

    try:
        open_state(ledger, session, allow_closed=closed)
    except NotFound:
        for path in files:
            try:
                check_file(path)  # a regular file within the caps: never a pipe's wait
                importer = find_importer(path)
            except (MalformedInput, OSError):  # the file's own error comes with its import
                continue
            if importer is not None and importer.name in _BOOK_FORMATS:
                check_new_session_name(ledger, session)
                return
        raise
    except LedgerError as exc:  # closed: named with the files, as each file's refusal is
        raise exc.located(file=files_named(files)) from None


def files_named(files: Sequence[Path]) -> str | None:
    """The files of an import as a refusal of them all names them: ``"a.phh"``, ``"a.phh
    (and 2 more files)"``; None for none."""
    if not files:
        return None
    from ledger.formats.files import file_name

    more = len(files) - 1
    return file_name(files[0]) + (f" (and {more} more file{'s' if more > 1 else ''})"
                                  if more else "")


def opens(read: FileRead, session: str) -> bool:
    """Whether the file ``read`` opens ``session`` itself (a JSON-lines ``session_opened``
    row of it): ``import --session`` then only confirms the session the file makes, which
    the ledger need not have opened (docs/FORMATS-IMPORT.md "JSON lines")."""
    return any(isinstance(i, SessionEntry) and i.session == session
               and i.event.type == "session_opened" for i in read.items)


def check_session_option(ledger: Any, read: FileRead, session: str) -> None:
    """``import --session session`` of ``read``: a session the ledger has opened and not
    closed, unless the file opens it itself; never one other than the file opens."""
    if read.session is None and not opens(read, session):
        from replay.sessions import open_state

        open_state(ledger, session)  # an opened session that is not closed
    refuse_other_openings(read, session)


def refuse_other_openings(read: FileRead, session: str) -> None:
    """Refuse ``import --session session`` of a file that opens another session (a JSON-lines
    ``session_opened`` row): the option only confirms the session the file opens (README
    "JSON lines"), and would put the file's hands in ``session``, its book in its own.

    Raises:
        LedgerError: naming both sessions and the opening's line; nothing is written.
    """
    for item in read.items:
        if (isinstance(item, SessionEntry) and item.session != session
                and item.event.type == "session_opened"):
            raise LedgerError(
                f"the file opens session {item.session}, not {session}: --session only "
                f"confirms the session the file opens (its hands would go to {session}, its "
                f"book to {item.session}); import it without --session, or with --session "
                f"{item.session}: nothing imported", line=item.line)
