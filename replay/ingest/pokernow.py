"""PokerNow game logs → ledger batches: the game's session stream and its hands, in log order.

Session items between two hands (buy-ins, joins, stand-ups, payments, aliases) are appended
to the session stream ``session:<name>`` in log order; every hand is checked with the engine
before it is written. Source keys make a re-import, or a longer export of the same game, add
only what is new: a hand's key is PokerNow's hand id (or its start), a session item's key is the
game (its first hand), the item's place (the hands before it, its index after them) and its
content, so the items a shorter export already wrote are known when the longer one comes, and
two games imported into one ``--session`` never mistake each other's items for their own
(``session_opened``: once per session; a longer export may know more, e.g. who exported it).

``--ledger``: :func:`import_statement` stores PokerNow's ledger CSV as one ``platform_ledger``
event at the end of the game's session stream; ``audit`` compares it with the replayed session.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ledger.model.errors import LedgerError, MalformedInput
from ledger.model.events import SessionOpened, event_json
from replay.build import check_events


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def read_pokernow(path: Path, session: str | None, game: Any = None
                  ) -> tuple[list[tuple], list[LedgerError]]:
    """Batches ``(stream, events, hand_id, session, source_key)`` and the errors of one log;
    ``game``: the log already read with this ``session`` (not read again)."""
    from ledger.formats.pokernow.log import PnHand, read_pokernow_log

    if game is None:
        game = read_pokernow_log(path, session=session)
    name = game.session
    errors: list[LedgerError] = list(game.errors)
    batches: list[tuple] = []
    first = next((i.source_key for i in game.items if isinstance(i, PnHand)), "")
    scope = f"pokernow:{name}:{_digest(first)}"  # this game (its first hand), in this session
    hands = since = 0  # hands so far, session items since the last hand
    for item in game.items:
        if not isinstance(item, PnHand):
            key = (f"pokernow:{name}:opened" if isinstance(item, SessionOpened)  # once
                   else f"{scope}:item:{hands}:{since}:{_digest(event_json(item))}")
            batches.append((f"session:{name}", [item], None, name, key))
            since += 1
            continue
        hands, since = hands + 1, 0
        events = item.events
        if events[0].session != name:
            events = [events[0].model_copy(update={"session": name}), *events[1:]]
        try:
            check_events(events, file=str(path), lines=[item.line] * len(events))
        except LedgerError as exc:
            errors.append(exc)
            continue
        batches.append((item.hand_id, events, item.hand_id, name, item.source_key))
    return batches, errors


def import_statement(ledger: Any, statement: Path, files: Sequence[Path], session: str | None,
                     report: Any) -> None:
    """Append PokerNow's ledger CSV ``statement`` as a ``platform_ledger`` event to the session
    of the one PokerNow log among ``files`` (its ``--session`` or default name); amounts as the
    CSV gives them, the game's chips (cents in a cents game). The same statement twice is
    appended once. Problems go to ``report.errors`` (an
    :class:`replay.ingest.pipeline.ImportReport`)."""
    from ledger.formats.pokernow.log import default_session, read_pokernow_ledger
    from ledger.model.events import parse_event

    logs = [f for f in files if f.suffix.lower() == ".csv"]
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
    (written,) = ledger.append_many([(f"session:{name}", [event], None, name, key)])
    report.events += len(written)
