"""The stored hands of given source keys: the one lookup the import's checks of a file's hands
against the ledger share (a hand known by its key, held under another id or in another
session: FORMATS.md §1, §2)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def hands_keyed(ledger: Any, keys: Iterable[str | None], upto: int | None = None
                ) -> dict[str, tuple[str, str | None]]:
    """``{source key: (hand id, session)}`` of the stored hands whose start (seq 1) has one of
    ``keys`` as its source key, stored at or before position ``upto`` (None: any); the first
    stored when a key has several, the dict in the order the hands were stored. One query;
    none when ``keys`` has none.

    Raises:
        LedgerError: the ledger's query failed (as :meth:`ledger.store.store.Ledger.query`).
    """
    wanted = sorted({k for k in keys if k is not None})
    if not wanted:
        return {}
    bound = " AND position <= ?" if upto is not None else ""
    rows = ledger.query(
        "SELECT source_key, hand_id, session FROM events WHERE seq = 1 AND hand_id IS NOT NULL"
        f" AND source_key IN (SELECT UNNEST(?)){bound} ORDER BY position",
        [wanted, *([upto] if upto is not None else [])])
    out: dict[str, tuple[str, str | None]] = {}
    for key, hand, session in rows:
        out.setdefault(key, (hand, session))
    return out
