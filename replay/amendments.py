"""A hand stream's amendments: which corrections and voids are in force, and the events the
hand is replayed from once they are applied, each numbered by the stream seq it stands for.

The events of a hand stream are the originals followed by any ``correction`` or
``hand_voided`` events. :func:`effective_events` applies every correction in order (each
names original events by their sequence number; the originals stay in the ledger); a
correction or void taken back by a later one (``handledger undo``) does not apply
(:func:`split_stream`). :mod:`replay.fold` folds what they leave.

Raises:
    engine.errors.IllegalAction: a change naming a sequence number the hand does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine.errors import IllegalAction
from ledger.model import events as ev

#: The event types that change a hand's stream: a correction and a void.
AMENDMENT_TYPES = frozenset({"correction", "hand_voided"})
#: Their models: a stream has none of them when none of its events is of these classes (an
#: event's ``type`` is its model's; looking up ``type`` costs every replayed hand about 0.5 us)
AMENDMENT_MODELS = frozenset({ev.Correction, ev.HandVoided})


class Numbered(NamedTuple):
    """An event of the effective stream with its number: ``seq``, the seq in the hand stream
    of the original event it stands for (a replacement keeps the seq it replaced; an inserted
    event, ``inserted``, carries the seq it was inserted after), so that ``show``, ``act``,
    ``history``, ``correct`` and the error messages name events alike."""

    seq: int
    inserted: bool
    event: Any


def effective_events(events: Sequence[Any]) -> tuple[list[Any], bool]:
    """Apply the stream's corrections and voids; return ``(events, corrected)``.

    Original events are numbered 1..n by their position in the stream; a correction's changes
    (``replace``, ``insert_after``, ``delete``) refer to those numbers, and later corrections
    apply on top of earlier ones. A ``hand_voided`` event is kept at the end. A correction or
    void taken back (:func:`split_stream`) does not apply; ``corrected`` is False when no
    correction or void is in force.

    Raises:
        IllegalAction: a change naming a sequence number the hand does not have.
    """
    numbered, corrected = numbered_events(events)
    return [n.event for n in numbered], corrected


def numbered_events(events: Sequence[Any], *, original: bool = False
                    ) -> tuple[list[Numbered], bool]:
    """:func:`effective_events` with each event's stream seq (:class:`Numbered`); with
    ``original`` the events as first recorded (corrections and voids left out, never
    applied), ``corrected`` False.

    Raises:
        IllegalAction: a change naming a sequence number the hand does not have.
    """
    if original:
        return [Numbered(i, False, e) for i, e in enumerate(events, 1)
                if e.type not in AMENDMENT_TYPES], False
    if AMENDMENT_MODELS.isdisjoint(map(type, events)):
        return [Numbered(i, False, e) for i, e in enumerate(events, 1)], False
    originals, corrections, voids = split_stream(events)
    if not corrections:
        return [Numbered(i, False, e) for i, e in originals] + voids, bool(voids)
    return _corrected(originals, corrections) + voids, True


def split_stream(events: Sequence[Any]) -> tuple[list[tuple[int, Any]], list[list[ev.Change]],
                                                 list[Numbered]]:
    """A hand stream's original ``(seq, event)`` pairs, the changes of each correction in
    force that name original events (one list per correction, in stream order) and the voids
    in force (:class:`Numbered`), seqs 1-based in the stream.

    A ``delete`` change naming a correction or a void (an earlier seq of the stream) takes that
    amendment back (what ``handledger undo`` appends after a ``correct`` or a ``void``): it no
    longer applies; one that was taken back takes nothing back itself, so taking back a
    take-back puts its amendment in force again. History stays: the amendment keeps its row.
    """
    types = [e.type for e in events]
    takes_back = _takes_back(types)
    taken = taken_back(events)
    originals: list[tuple[int, Any]] = []
    corrections: list[list[ev.Change]] = []
    voids: list[Numbered] = []
    for i, e in enumerate(events, 1):
        if e.type not in AMENDMENT_TYPES:
            originals.append((i, e))
        elif i in taken:
            continue
        elif e.type == "hand_voided":
            voids.append(Numbered(i, False, e))
        elif own := [c for c in e.changes if not takes_back(i, c)]:
            corrections.append(own)
    return originals, corrections, voids


def _takes_back(types: Sequence[str]) -> Callable[[int, ev.Change], bool]:
    """Whether a change of the correction at stream seq ``i`` names an earlier correction or
    void (of the stream whose event types are ``types``): it takes that amendment back."""
    def takes_back(i: int, change: ev.Change) -> bool:
        return change.seq < i and types[change.seq - 1] in AMENDMENT_TYPES

    return takes_back


def taken_back(events: Sequence[Any]) -> set[int]:
    """The stream seqs (1-based) of the corrections and voids of ``events`` that a later
    correction in force takes back (:func:`split_stream`): they do not apply."""
    types = [e.type for e in events]
    takes_back = _takes_back(types)
    taken: set[int] = set()
    for i in range(len(events), 0, -1):
        if types[i - 1] == "correction" and i not in taken:
            taken.update(c.seq for c in events[i - 1].changes if takes_back(i, c))
    return taken


def in_force_before(events: Sequence[Any], seq: int) -> dict[int, tuple[Any, int | None]]:
    """``{original seq: (event, set_by)}``: the event in force at each original seq of the
    hand stream ``events`` as the hand read just before its event ``seq`` (1-based: the
    corrections and voids before it applied, less those taken back then,
    :func:`split_stream`), None when deleted, and the seq of the correction in force that
    last replaced or deleted it (None: as first recorded). Empty when those amendments do
    not apply (a damaged stream). What ``history`` and ``view`` say a correction changed."""
    prefix = list(events[:seq - 1])
    try:
        numbered, _ = numbered_events(prefix)
    except IllegalAction:
        return {}
    heads: dict[int, Numbered] = {}
    for n in numbered:  # the first of each seq's events: its own, unless it was deleted
        heads.setdefault(n.seq, n)
    taken = taken_back(prefix)
    set_by: dict[int, int] = {}
    for k, e in enumerate(prefix, 1):
        if e.type == "correction" and k not in taken:
            for c in e.changes:
                if (c.op != "insert_after" and c.seq <= len(prefix)
                        and prefix[c.seq - 1].type not in AMENDMENT_TYPES):
                    set_by[c.seq] = k
    out: dict[int, tuple[Any, int | None]] = {}
    for k, e in enumerate(prefix, 1):
        if e.type not in AMENDMENT_TYPES:
            head = heads.get(k)
            out[k] = (head.event if head is not None and not head.inserted else None,
                      set_by.get(k))
    return out


def _corrected(originals: list[tuple[int, Any]], corrections: list[list[ev.Change]]
               ) -> list[Numbered]:
    """The original ``(seq, event)`` pairs with every correction's changes applied in order."""
    slots: list[tuple[int, list[Numbered]]] = [(seq, [Numbered(seq, False, e)])
                                               for seq, e in originals]
    index = {seq: k for k, (seq, _) in enumerate(slots)}
    for changes in corrections:
        for change in changes:
            k = index.get(change.seq)
            if k is None:
                raise IllegalAction(f"correction names seq {change.seq}, which is not an event")
            seq, group = slots[k]
            new = ([Numbered(seq, change.op != "replace", ev.parse_event(change.event))]
                   if change.event is not None else [])
            if change.op == "replace":
                slots[k] = (seq, new + group[1:])
            elif change.op == "delete":
                slots[k] = (seq, group[1:])
            else:
                slots[k] = (seq, group + new)
    return [n for _, group in slots for n in group]


def renumber(exc: IllegalAction, numbered: Sequence[Numbered]) -> IllegalAction:
    """``exc`` (raised while folding the events of ``numbered`` in order, its ``seq`` their
    1-based position) naming the event by its stream seq instead; returns ``exc``."""
    if exc.seq is not None and 1 <= exc.seq <= len(numbered):
        exc.seq = numbered[exc.seq - 1].seq
    return exc
