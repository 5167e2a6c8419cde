"""A correction entered again: the same changes a correction in force already made to the hand
(README "Correcting a hand": a correction changes original events by their seq, each against
the hand as corrected so far, so the same ``--insert-after`` given twice would insert its
action twice, and the same ``--replace`` twice would change nothing). ``correct`` and
``whatif`` refuse it naming that correction, not what the doubled changes would break.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import IllegalAction
from replay.amendments import AMENDMENT_TYPES, taken_back
from replay.correction_build import ChangeSpec, build_correction
from replay.hand_history import change_brief
from replay.typed import stream_decimals


def made_already(events: Sequence[Any], specs: Sequence[ChangeSpec], *,
                 names: Mapping[str, str] | None = None) -> int | None:
    """The stream seq (1-based) of the correction in force in ``events`` (the hand's stream:
    originals and amendments) that made exactly the changes ``specs`` make of the hand as it
    stood before it (each change's op, seq and event alike), when no later correction in
    force changes those seqs again; None when there is none. Only corrections that change
    original events are compared (an undo takes one back)."""
    taken = taken_back(events)
    types = [e.type for e in events]
    seqs = {spec.seq for spec in specs}
    for i in range(len(events), 0, -1):
        made = events[i - 1]
        if made.type != "correction" or i in taken or any(
                c.seq < i and types[c.seq - 1] in AMENDMENT_TYPES for c in made.changes):
            continue
        if {c.seq for c in made.changes} != seqs or _changed_later(events, i, seqs, taken):
            continue
        try:
            again = build_correction(events[:i - 1], specs, reason=made.reason, by=made.by,
                                     keep_end=False, names=names)
        except IllegalAction:
            continue
        if ([c.model_dump(mode="json") for c in again.changes]
                == [c.model_dump(mode="json") for c in made.changes]):
            return i
    return None


def _changed_later(events: Sequence[Any], i: int, seqs: set[int], taken: set[int]) -> bool:
    """Whether a correction in force after stream seq ``i`` changes one of ``seqs``."""
    return any(e.type == "correction" and k not in taken and any(c.seq in seqs
                                                                 for c in e.changes)
               for k, e in enumerate(events[i:], i + 1))


def refuse_made_already(hand: str, events: Sequence[Any], specs: Sequence[ChangeSpec], *,
                        names: Mapping[str, str] | None = None) -> None:
    """Refuse ``specs`` when a correction in force of ``hand`` made them already
    (:func:`made_already`).

    Raises:
        IllegalAction: ``already corrected so: the correction at seq 25 (by floor) made
            replace seq 23 recorded_payout Bob 100, insert_after seq 23 recorded_payout Ann
            300; nothing written (`handledger history dispute-1` lists it)``: its changes
            as it stored them, as ``history`` lists them (:func:`made_said`).
    """
    if not any(e.type == "correction" for e in events):
        return
    i = made_already(events, specs, names=names)
    if i is None:
        return
    raise IllegalAction(f"already corrected so: the correction at seq {i} (by {events[i - 1].by}) "
                        f"made {made_said(events, i)}; nothing written (`handledger history "
                        f"{hand}` lists it)", hand=hand)


def made_said(events: Sequence[Any], i: int) -> str:
    """The changes of the correction at stream seq ``i`` of ``events`` as it stored them, in
    ``history``'s words (:func:`replay.hand_history.change_brief`, chips as the hand writes
    them): ``replace seq 23 recorded_payout Bob 100, insert_after seq 23 recorded_payout Ann
    300``, ``delete seq 17``."""
    decimals = stream_decimals(events)
    return ", ".join(f"{c.op} seq {c.seq}"
                     + (f" {change_brief(c.event, decimals)}" if c.event is not None else "")
                     for c in events[i - 1].changes)
