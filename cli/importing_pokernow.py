"""PokerNow game logs → ledger batches: the game's session stream and its hands, in log order.

Session items between two hands (buy-ins, joins, stand-ups, payments, aliases) are appended
to the session stream ``session:<name>`` as one batch each; every hand is checked with the
engine before it is written. Source keys make a re-import, or a longer export of the same game,
add only what is new.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ledger.errors import LedgerError
from replay.build import check_events


def read_pokernow(path: Path, session: str | None) -> tuple[list[tuple], list[LedgerError]]:
    """Batches ``(stream, events, hand_id, session, source_key)`` and the errors of one log."""
    from ledger.pokernow import PnHand, read_pokernow_log

    game = read_pokernow_log(path, session=session)
    name = game.session
    errors: list[LedgerError] = list(game.errors)
    batches: list[tuple] = []
    pending: list[Any] = []

    def flush() -> None:
        if not pending:
            return
        digest = hashlib.sha256(
            "\n".join(e.model_dump_json() for e in pending).encode()
        ).hexdigest()[:16]
        key = f"pokernow:{name}:items:{len(batches)}:{digest}"
        batches.append((f"session:{name}", list(pending), None, name, key))
        pending.clear()

    for item in game.items:
        if not isinstance(item, PnHand):
            pending.append(item)
            continue
        flush()
        events = item.events
        if events[0].session != name:
            events = [events[0].model_copy(update={"session": name}), *events[1:]]
        try:
            check_events(events, file=str(path), lines=[item.line] * len(events))
        except LedgerError as exc:
            errors.append(exc)
            continue
        batches.append((item.hand_id, events, item.hand_id, name, item.source_key))
    flush()
    return batches, errors
