"""What one append writes: a :class:`Batch` of events for one stream.

Readers and importers produce batches, the store appends them (``Ledger.append_many``), one
transaction for many. A batch is a named tuple so that it reads by name; its first five fields
(``batch[:5]``) are the plain 5-tuple the store has always taken, and ``line`` rides beside
them for errors only (never stored).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Batch(NamedTuple):
    """The events of one stream to append, with what the store keeps beside each row.

    ``stream``: a hand id, or ``session:<name>`` for a session's stream. ``events``: typed
    events (``ledger.model.events``), in stream order; ``None`` in an import pipeline means "a
    hand already in the ledger: counted, not written". ``hand_id``: the hand (``None`` for a
    session stream). ``session``: the session the rows belong to (``None``: none, or the
    stream's stored one). ``source_key``: what makes a re-import idempotent: when any stored
    row has it, the batch is skipped (``None``: no key). ``line``: the 1-based line of the
    file where the hand (or session entry) starts, so that a refusal of the whole batch (a
    stored hand edited) names it (``None``: not read from a file, or not known); ``lines``:
    the line of each of ``events`` where the file has one row an event (JSON lines), so that
    a refusal names the row it is about (``None``: not known); the store neither takes nor
    keeps either.
    """

    stream: str
    events: Sequence[Any] | None
    hand_id: str | None = None
    session: str | None = None
    source_key: str | None = None
    line: int | None = None
    lines: Sequence[int] | None = None

    @property
    def is_hand(self) -> bool:
        """Whether the batch is a hand's stream (not a session's)."""
        return self.hand_id is not None

    def with_events(self, events: Sequence[Any] | None) -> Batch:
        """The same batch with other events (``None``: counted, not written)."""
        return self._replace(events=events)
