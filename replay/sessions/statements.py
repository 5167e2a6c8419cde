"""A platform's ledger statement of a session (``import LOG --ledger STATEMENT``, a
``platform_ledger`` event; FORMATS.md §2) taken back: ``entry retract SESSION SEQ`` of the
statement's seq appends an ``entry_corrected`` event that retracts it (the statement stays in
the ledger, as every retracted entry does). The audit then compares no statement, or the one
imported after it (the statement in force: the session's latest one not retracted), and the
right statement of the game can be imported. A statement is never amended: its figures are
the platform's, not the host's."""

from __future__ import annotations

from typing import Any

from ledger.model.errors import LedgerError
from ledger.model.shell import shell_arg


def statement_rows(ledger: Any, session: str, upto: int | None = None
                   ) -> list[tuple[int, Any]]:
    """``(seq, platform_ledger event)`` of each statement of ``session`` not retracted, in
    ledger order (the last one is the statement in force); none for no such session.
    ``upto``: the session's rows up to that seq only (None: all)."""
    if not ledger.streams(kind="session", session=session):
        return []
    rows = list(ledger.read(f"session:{session}", upto=upto))
    fixes = {r.event.seq: r.event.replacement for r in rows if r.type == "entry_corrected"}
    return [(r.seq, r.event) for r in rows
            if r.type == "platform_ledger" and not (r.seq in fixes and fixes[r.seq] is None)]


def statement_to_retract(ledger: Any, session: str, seq: int, *, amending: bool,
                         closed: bool, closed_session: bool, before: int | None = None
                         ) -> Any | None:
    """The ``platform_ledger`` event at ``seq`` of ``session``'s stream that ``entry
    retract`` takes back, or None when the row at ``seq`` is no statement (the caller looks
    for a book entry there). ``closed_session``: the session is closed; ``closed``: the
    command's ``--closed``. ``before``: the seq of the retraction when it is stored already
    (a JSON-lines row): the session's rows before it only.

    Raises:
        LedgerError: ``amending`` (a statement is retracted, never amended), a statement
            retracted already, or one of a closed session without ``closed`` (the audit
            compares it with the books settled up at the close), naming the statement's
            file; nothing written.
    """
    upto = None if before is None else before - 1
    rows = {r.seq: r for r in ledger.read(f"session:{session}", upto=upto)
            } if ledger.streams(kind="session", session=session) else {}
    row = rows.get(seq)
    if row is None or row.type != "platform_ledger":
        return None
    statement = row.event
    what = f"entry {seq} of session {session} is a ledger statement ({statement.file})"
    if amending:
        raise LedgerError(
            f"{what}: a statement is the platform's figures, never amended: retract it "
            f"(`handledger entry retract {shell_arg(session)} {shell_arg(seq)} --reason … --by "
            "…`) and import the "
            "right one with its log (`handledger import LOG --ledger STATEMENT`); nothing "
            "written")
    if all(s != seq for s, _ in statement_rows(ledger, session, upto)):
        raise LedgerError(f"{what}: it is retracted already: nothing to retract")
    if closed_session and not closed:
        raise LedgerError(
            f"session {session} is closed (its books were settled up at the close): "
            f"retracting its ledger statement {seq} ({statement.file}) changes what the audit "
            "compares them with; nothing written; --closed records it anyway")
    return statement
