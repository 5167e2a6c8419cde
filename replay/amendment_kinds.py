"""What the host did to each amended hand, by the writes of its stream: ``correct``, ``undo``
or ``void`` (README "disputes"), as the report's pages label them.

A hand's rows written together share their ``recorded_at`` (one write: what ``undo`` takes
back, :func:`replay.corrections.last_write`). A void of an ended hand is one write of a
correction that drops the hand's end and the ``hand_voided`` (:func:`replay.corrections.void`):
one void. An undo is a write of one correction whose changes all delete and name exactly the
seqs of one earlier write (an ``act``, a correction, a void). Every other correction is a
correction.
"""

from __future__ import annotations

from typing import Any

from ledger.model.events import parse_event

#: ``(kind, by, reason)``: kind ``"correction"``, ``"undo"`` or ``"void"``.
Amendment = tuple[str, str, str]


def amendment_kinds(ledger: Any) -> dict[str, list[Amendment]]:
    """``{hand: [(kind, by, reason)]}`` of every hand with a correction or a void, each write
    that amends it once, in seq order (module doc): a void by the void's author and reason.

    Raises:
        MalformedEvent: a stored payload that does not parse.
    """
    rows = ledger.query(
        "SELECT hand_id, seq, type, recorded_at, CASE WHEN type IN ('correction',"
        " 'hand_voided') THEN CAST(payload AS VARCHAR) END FROM events WHERE hand_id IN"
        " (SELECT hand_id FROM events WHERE type IN ('correction', 'hand_voided'))"
        " ORDER BY hand_id, seq")
    writes: dict[str, dict[Any, list[tuple[int, str, str | None]]]] = {}
    for hand, seq, kind, at, payload in rows:
        writes.setdefault(hand, {}).setdefault(at, []).append((int(seq), kind, payload))
    return {hand: _kinds(list(by_time.values())) for hand, by_time in writes.items()}


def _kinds(writes: list[list[tuple[int, str, str | None]]]) -> list[Amendment]:
    """The amendments among a hand's ``writes`` (each its rows ``(seq, type, payload)``), in
    order."""
    out: list[Amendment] = []
    earlier: set[frozenset[int]] = set()
    for write in writes:
        seqs = frozenset(seq for seq, _, _ in write)
        events = [parse_event(p) for _, kind, p in write
                  if kind in ("correction", "hand_voided") and p is not None]
        void = next((e for e in events if e.type == "hand_voided"), None)
        if len(write) == 1 and events and _undoes(events[0], earlier):
            out.append(("undo", events[0].by, events[0].reason))
        else:  # a void's own correction (its reason "void: …", by its author) is the void
            out += [("void", e.by, e.reason) if e is void else ("correction", e.by, e.reason)
                    for e in events if void is None or e is void
                    or (e.by, e.reason) != (void.by, f"void: {void.reason}")]
        earlier.add(seqs)
    return out


def _undoes(correction: Any, earlier: set[frozenset[int]]) -> bool:
    """Whether ``correction`` deletes exactly the rows of one of the ``earlier`` writes."""
    changes = correction.changes
    return bool(changes) and all(c.op == "delete" for c in changes) and (
        frozenset(c.seq for c in changes) in earlier)
