"""What the host did to each amended hand, by the writes of its stream: ``correct``, ``undo``
or ``void`` (docs/COMMANDS.md "disputes"), as the report's pages label them.

A hand's rows written together share their ``recorded_at`` (one write: what ``undo`` takes
back, :func:`replay.corrections.last_write`). A void of an ended hand is one write of a
correction that drops the hand's end and the ``hand_voided`` (:func:`replay.corrections.void`):
one void. An undo is a write of one correction whose changes all delete and name exactly the
seqs of one earlier write (an ``act``, a correction, a void). Every other correction is a
correction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.model.events import parse_event

#: ``(kind, by, reason)``: kind ``"correction"``, ``"undo"`` or ``"void"``.
Amendment = tuple[str, str, str]

_AMENDING = ("correction", "hand_voided")


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
    writes: dict[str, dict[Any, list[tuple[int, Any]]]] = {}
    for hand, seq, _, at, payload in rows:
        writes.setdefault(hand, {}).setdefault(at, []).append(
            (int(seq), None if payload is None else parse_event(payload)))
    return {hand: _kinds(list(by_time.values())) for hand, by_time in writes.items()}


def _kinds(writes: list[list[tuple[int, Any]]]) -> list[Amendment]:
    """The amendments among a hand's ``writes`` (each its rows ``(seq, event)``, the event
    None but of a correction or a void), in order: a void's own correction left out (the
    void says it)."""
    return [(kind, e.by, e.reason) for _, kind, e, own in _labelled(writes) if not own]


def kinds_by_seq(rows: Sequence[Any]) -> dict[int, str]:
    """``{seq: kind}`` of every ``correction`` and ``hand_voided`` among one hand's stored
    ``rows`` (``ledger.store.store.StoredEvent``, by seq; rows of one ``recorded_at`` are one
    write), kind ``"correction"``, ``"undo"`` or ``"void"`` as :func:`amendment_kinds` tells
    them (module doc); a void's own correction (what drops an ended hand's end) is ``"void"``.
    """
    writes = [[(r.seq, r.event if r.event.type in _AMENDING else None) for r in write]
              for write in writes_of(rows)]
    return {seq: kind for seq, kind, _, _ in _labelled(writes)}


def writes_of(rows: Sequence[Any]) -> list[list[Any]]:
    """One hand's stored ``rows`` (by seq) as its writes: the rows of one ``recorded_at``
    together (an ``act``, a correction, a void, an import), in order."""
    writes: dict[Any, list[Any]] = {}
    for r in rows:
        writes.setdefault(r.recorded_at, []).append(r)
    return list(writes.values())


def undo_writes(rows: Sequence[Any]) -> list[list[Any]]:
    """:func:`writes_of`, with a void recorded in a write that holds other rows before it
    (an import whose hand ends voided: a JSON-lines file exported from a ledger where the
    hand was voided) split off as a write of its own, as ``handledger void`` writes one: its
    ``hand_voided`` and the void's own correction just before it (:func:`own_correction`).
    ``handledger undo`` then takes back that void as it takes back one voided here."""
    out: list[list[Any]] = []
    for write in writes_of(rows):
        cut = len(write) - 1
        if write[cut].type == "hand_voided" and cut >= 1:
            if write[cut - 1].type == "correction" and own_correction(
                    write[cut - 1].event, write[cut].event):
                cut -= 1
            if cut >= 1:
                out.extend([write[:cut], write[cut:]])
                continue
        out.append(write)
    return out


def own_correction(e: Any, void: Any) -> bool:
    """Whether the correction ``e`` is the void ``void``'s own (the rows it drops, written
    with it): its reason ``void: …`` and author the void's."""
    return (e.by, e.reason) == (void.by, f"void: {void.reason}")


def _labelled(writes: list[list[tuple[int, Any]]]) -> list[tuple[int, str, Any, bool]]:
    """``(seq, kind, event, own)`` of each correction and void among a hand's ``writes`` (as
    :func:`_kinds` takes them), in order; ``own``: a void's own correction, labelled
    ``"void"``."""
    out: list[tuple[int, str, Any, bool]] = []
    earlier: set[frozenset[int]] = set()
    for write in writes:
        seqs = frozenset(seq for seq, _ in write)
        events = [(seq, e) for seq, e in write if e is not None]
        void = next((e for _, e in events if e.type == "hand_voided"), None)
        if len(write) == 1 and events and _undoes(events[0][1], earlier):
            out.append((events[0][0], "undo", events[0][1], False))
        else:  # a void's own correction (its reason "void: …", by its author) is the void
            for seq, e in events:
                own = void is not None and e is not void and own_correction(e, void)
                out.append((seq, "void" if e is void or own else "correction", e, own))
        earlier.add(seqs)
    return out


def _undoes(correction: Any, earlier: set[frozenset[int]]) -> bool:
    """Whether ``correction`` deletes exactly the rows of one of the ``earlier`` writes."""
    return taken_back(correction) in earlier


def taken_back(correction: Any) -> frozenset[int] | None:
    """The seqs a ``correction`` takes back when it only deletes (as ``undo`` writes it: an
    undo deletes exactly the rows of one earlier write, module doc); None when it changes
    anything else, or nothing, and for an event that is not a correction (a void of a hand
    in play is a write of one ``hand_voided``)."""
    if correction.type != "correction":
        return None
    changes = correction.changes
    if not changes or any(c.op != "delete" for c in changes):
        return None
    return frozenset(c.seq for c in changes)
