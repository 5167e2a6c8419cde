"""What an import writes into a session the ledger has closed only with ``import --closed``.

A closed session's books were audited and settled up at the close (README, "sessions and the
books"; RULES.md §1.1): it takes no more hands or buy-ins, whatever the flags, and a change
to what it holds is a correction that ``--closed`` says is meant, as ``correct``, ``void``
and ``undo`` ask. An import makes such a change when a file goes on with a hand the ledger
holds (:mod:`replay.ingest.completing`: a longer PokerNow export completing a hand an earlier
one cut off, the shows logged after a hand's end, a JSON-lines export's corrections and voids
of a stored hand or the actions of one in play), when a JSON-lines file amends the session's
books after the ledger's closing (a buy-in or cash-out amended or retracted, the chip's value
set: what ``entry amend``, ``entry retract`` and ``session set`` ask ``--closed`` for; a ledger
statement), and when
``--ledger`` adds PokerNow's ledger statement to the session, which the audit compares with
its books.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError

#: What every refusal ends with: nothing was written, and how to record it anyway.
_ANYWAY = "nothing of the file was written; --closed records it anyway"


def refuse_amending(ledger: Any, batch: Batch, session: str | None) -> None:
    """Refuse the file of ``batch``, the rows an import would append to a hand the ledger
    holds in ``session`` (its stored session), when that session is closed.

    Raises:
        LedgerError: naming the batch's line, the hand, the session and what the file would
            write (:func:`replay.ingest.completing.writes`); the file's transaction is rolled
            back, so nothing of it is written.
    """
    from replay.ingest.completing import writes
    from replay.sessions import session_state

    if session is None:
        return
    state = session_state(ledger, session)
    if not state.closed:
        return
    raise LedgerError(
        f"session {session!r} is closed (entry {state.closed_seq}) and this file would "
        f"{writes(batch)}: its books were settled up at the close; {_ANYWAY}",
        line=batch.line, hand=batch.hand_id)


def refuse_settled_change(item: Any, target: str | None, closing: int, *, file: str) -> None:
    """Refuse the file of the JSON-lines session row ``item`` (a
    :class:`ledger.formats.reading.SessionEntry` the ledger does not hold) when it changes
    the books of its session, which the ledger closed at seq ``closing``: an
    ``entry_corrected`` of an entry other than a payment (``target``: the type of the entry
    it amends, None when unknown), a ``session_changed`` (the chip's value), or a
    ``platform_ledger`` (a ledger statement, as :func:`refuse_statement`). Payments,
    cash-outs and aliases go in (README, "sessions and the books").

    Raises:
        LedgerError: naming the file, the row's line, the session and the entry that
            closed it; nothing of the file is written.
    """
    event = item.event
    if event.type == "entry_corrected" and target != "payment":
        what = f"amends its {target or 'entry'} at seq {event.seq}"
    elif event.type == "session_changed":
        what = "sets the value of its chip"
    elif event.type == "platform_ledger":
        what = "adds a ledger statement, which the audit compares with its books,"
    else:
        return
    raise LedgerError(
        f"its {event.type} at seq {item.seq} {what} after the session was closed (entry "
        f"{closing}): its books were settled up at the close; {_ANYWAY}",
        file=file, line=item.line, session=item.session)


def refuse_statement(ledger: Any, statement: Path, session: str,
                     written: str = "nothing was imported") -> None:
    """Refuse PokerNow's ledger statement ``statement`` for ``session`` when the ledger holds
    that session closed (``import LOG --ledger STATEMENT``, FORMATS.md §2); ``written``: what
    the refusal says of the import (checked before the files, nothing of them was).

    Raises:
        LedgerError: naming the statement, the session and the entry that closed it.
    """
    from replay.sessions import session_state

    state = session_state(ledger, session)
    if state.closed:
        raise LedgerError(
            f"--ledger {statement}: session {session!r} is closed (entry {state.closed_seq}): "
            "its books were settled up at the close, and a ledger statement is compared with "
            f"them; {written}; --closed records it anyway")
