"""PokerNow's ledger statement (``import LOG --ledger STATEMENT``, FORMATS.md §2) kept.

:func:`import_statement` stores PokerNow's ledger CSV as one ``platform_ledger`` event at the end
of the game's session stream; ``audit`` compares it with the replayed session. The game log
itself is read by :mod:`ledger.formats.pokernow.importer`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ledger.model.batch import Batch
from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.events import event_json


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def import_statement(ledger: Any, statement: Path, files: Sequence[Path], session: str | None,
                     report: Any) -> None:
    """Append PokerNow's ledger CSV ``statement`` as a ``platform_ledger`` event to the session
    of the one PokerNow log among ``files`` (its ``--session`` or default name); amounts as the
    CSV gives them, the game's chips (cents in a cents game). The same statement twice is
    appended once. Problems go to ``report.errors`` (an
    :class:`replay.ingest.pipeline.ImportReport`)."""
    from ledger.formats.pokernow.log import default_session, read_pokernow_ledger
    from ledger.model.events import parse_event
    from replay.ingest.registry import find_importer

    logs = [f for f in files if getattr(find_importer(f), "name", None) == "pokernow"]
    if len(logs) != 1:
        report.errors.append(f"--ledger {statement}: give exactly one PokerNow log with it "
                             f"({len(logs)} given)")
        return
    name = session or default_session(logs[0])
    try:
        rows = read_pokernow_ledger(statement, zero_sum=False)
        if not rows:
            raise MalformedInput("the ledger has no player rows", file=statement.name)
        event = parse_event({"type": "platform_ledger", "platform": "pokernow",
                             "file": statement.name, "rows": [
                                 {"player": r.player_id, "nickname": r.nickname,
                                  "buy_in": r.buy_in, "buy_out": r.buy_out, "stack": r.stack,
                                  "nit_escrow": r.nit_escrow, "net": r.net} for r in rows]})
    except LedgerError as exc:
        report.errors.append(str(exc.located(file=str(statement))))
        return
    if not ledger.streams(kind="session", session=name):
        report.errors.append(f"--ledger {statement}: no session {name!r} in the ledger "
                             f"(its log {logs[0]} was not imported)")
        return
    key = f"pokernow-ledger:{name}:{_digest(event_json(event))}"
    (written,) = ledger.append_many([Batch(f"session:{name}", [event], None, name, key)])
    report.events += len(written)
