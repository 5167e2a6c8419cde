"""What an import writes into a session the ledger has closed only with ``import --closed``.

A closed session's books were audited and settled up at the close (README, "sessions and the
books"; RULES.md §1.1). One rule holds for the commands and every import alike: it takes no
more hands or buy-ins, whatever the flags; payments, the settling up, go in (and their
amendments, a player's alias, a seat change: nothing the books count); and a change to what it
holds is a correction that ``--closed`` says is meant, as ``cashout``, ``entry amend``,
``correct``, ``void`` and ``undo`` ask. An import makes such a change when a file goes on with
a hand the ledger holds (:mod:`replay.ingest.completing`: a longer PokerNow export completing
a hand an earlier one cut off, the shows logged after a hand's end, a JSON-lines export's
corrections and voids of a stored hand or the actions of one in play), when a file adds a
session row after the ledger's closing that :func:`settled_change` names (a cash-out, a PokerNow
player's quit as much as a JSON-lines row; a buy-in or cash-out amended or retracted, the
chip's value set: what ``entry amend``, ``entry retract`` and ``session set`` ask ``--closed``
for; a ledger statement), and when ``--ledger`` adds PokerNow's ledger statement to the
session, which the audit compares with its books. A file that closes its session itself
before such a row (another ledger's export, which that ledger recorded with ``--closed``) goes
into a ledger that holds the session open, or none of it, whole.
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


def settled_change(event: Any, target: str | None = None) -> str | None:
    """What the session row ``event`` (a ``ledger.model.events.SessionEvent``) does to the
    books of a closed session, as a refusal words it (``cashes out Ann (10 chips)``), or None
    when a closed session takes it without ``--closed`` (a payment or its amendment, an
    alias, a seat change). ``target``: the type of the entry an ``entry_corrected`` amends
    (None when unknown). A buy-in made before a hand of the session (``buyin --before HAND
    --closed``) changes them as a cash-out does; any other buy-in or an opening, which no flag
    lets in, is the caller's."""
    if event.type == "cash_out":
        return f"cashes out {event.player} ({event.chips} chips)"
    if event.type == "buy_in" and event.before is not None:
        return f"buys {event.player} {event.chips} chips before hand {event.before}"
    if event.type == "entry_corrected" and target != "payment":
        return f"amends its {target or 'entry'} at seq {event.seq}"
    if event.type == "session_changed":
        return "sets the value of its chip"
    if event.type == "platform_ledger":
        return "adds a ledger statement, which the audit compares with its books,"
    return None


def refuse_settled_change(item: Any, target: str | None, closing: int, *, file: str) -> None:
    """Refuse the file of the JSON-lines session row ``item`` (a
    :class:`ledger.formats.reading.SessionEntry` the ledger does not hold) when it changes
    the books of its session, which the ledger closed at seq ``closing``
    (:func:`settled_change`: a ``cash_out``, an ``entry_corrected`` of an entry other than
    a payment, ``target`` the type of the entry it amends, a ``session_changed``, or a
    ``platform_ledger``, as :func:`refuse_statement`). Payments and aliases go in (README,
    "sessions and the books").

    Raises:
        LedgerError: naming the file, the row's line, the session and the entry that
            closed it; nothing of the file is written.
    """
    what = settled_change(item.event, target)
    if what is None:
        return
    raise LedgerError(
        f"its {item.event.type} at seq {item.seq} {what} after the session was closed (entry "
        f"{closing}): its books were settled up at the close; {_ANYWAY}",
        file=file, line=item.line, session=item.session)


def refuse_settled_rows(ledger: Any, session: str, rows: list[Any], names: dict[str, str],
                        *, file: str) -> None:
    """Refuse a PokerNow log that would add the session rows ``rows`` (its
    :class:`ledger.formats.reading.SessionEntry` items the ledger does not hold, none of them
    a buy-in) to ``session``, which the ledger holds closed, when one of them changes its
    books (:func:`settled_change`; of a log's rows, a cash-out: a player's quit, or his stack
    lowered by the host). ``names``: the name each player id is shown under in the log.

    Raises:
        LedgerError: naming the file, the first such row's line, the session, the entry
            that closed it and the players cashed out; nothing of the file is written.
    """
    from replay.sessions import session_state

    outs = [r for r in rows if settled_change(r.event) is not None]
    if not outs:
        return
    players = ", ".join(f"{names.get(r.event.player, r.event.player)} ({r.event.chips} chips)"
                        for r in outs)
    raise LedgerError(
        f"session {session!r} is closed (entry {session_state(ledger, session).closed_seq}) "
        f"and this log would cash out {players}: its books were settled up at the close; "
        f"{_ANYWAY}", file=file, line=outs[0].line or None)


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
