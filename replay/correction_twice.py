"""A correction entered again: the same changes a correction in force already made to the hand
(README "Correcting a hand": a correction changes original events by their seq, each against
the hand as corrected so far, so the same ``--insert-after`` given twice would insert its
action twice, and the same ``--replace`` twice would change nothing). ``correct`` and
``whatif`` refuse it naming that correction, not what the doubled changes would break; so
is a part of it entered again (every change one that correction made: ``--insert-after 23
'pay Ann 300'`` alone after ``--replace 23 'pay Bob 100' --insert-after 23 'pay Ann 300'``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from itertools import permutations, product
from typing import Any

from engine.errors import IllegalAction
from ledger.model.events import Unit
from ledger.model.shell import shell_arg
from replay.amendments import AMENDMENT_TYPES, taken_back
from replay.correction_build import ChangeSpec, build_correction
from replay.hand_history import change_brief
from replay.typed import stream_decimals


def made_already(events: Sequence[Any], specs: Sequence[ChangeSpec], *,
                 names: Mapping[str, str] | None = None, chip: Unit | None = None
                 ) -> int | None:
    """The stream seq (1-based) of the correction in force in ``events`` (the hand's stream:
    originals and amendments) that made exactly the changes ``specs`` make of the hand as it
    stood before it (each change's op, seq and event alike, in any order: two
    ``--insert-after`` of one seq are told apart by their events), when no later correction
    in force changes those seqs again; None when there is none. Only corrections that change
    original events are compared (an undo takes one back). ``chip``: as
    :func:`replay.correction_build.build_correction` takes it."""
    taken = taken_back(events)
    types = [e.type for e in events]
    seqs = {spec.seq for spec in specs}
    for i in range(len(events), 0, -1):
        made = events[i - 1]
        if made.type != "correction" or i in taken or any(
                c.seq < i and types[c.seq - 1] in AMENDMENT_TYPES for c in made.changes):
            continue
        if (len(made.changes) != len(specs) or {c.seq for c in made.changes} != seqs
                or _changed_later(events, i, seqs, taken)):
            continue
        if _made_of(events, i, specs, names, chip) is not None:
            return i
    return None


def _changed_later(events: Sequence[Any], i: int, seqs: set[int], taken: set[int]) -> bool:
    """Whether a correction in force after stream seq ``i`` changes one of ``seqs``."""
    return any(e.type == "correction" and k not in taken and any(c.seq in seqs
                                                                 for c in e.changes)
               for k, e in enumerate(events[i:], i + 1))


def refuse_made_already(hand: str, events: Sequence[Any], specs: Sequence[ChangeSpec], *,
                        names: Mapping[str, str] | None = None, chip: Unit | None = None
                        ) -> None:
    """Refuse ``specs`` when a correction in force of ``hand`` made them already
    (:func:`made_already`), or made each of them among others (:func:`made_in_part`);
    ``chip``: as :func:`replay.correction_build.build_correction` takes it.

    Raises:
        IllegalAction: ``already corrected so: the correction at seq 25 (by floor) made
            replace seq 23 recorded_payout Bob 100, insert_after seq 23 recorded_payout Ann
            300; nothing written (`handledger history dispute-1` lists it)``: its changes
            as it stored them, as ``history`` lists them (:func:`made_said`); for a part,
            ``… made insert_after seq 23 recorded_payout Ann 300 (1 of its 2 changes:
            replace seq 23 …, insert_after seq 23 …); nothing written …``.
    """
    if not any(e.type == "correction" for e in events):
        return
    i = made_already(events, specs, names=names, chip=chip)
    if i is not None:
        said = made_said(events, i)
    else:
        part = made_in_part(events, specs, names=names, chip=chip)
        if part is None:
            return
        i, kept = part
        changes = events[i - 1].changes
        said = (f"{_said(events, [changes[k] for k in kept])} ({len(kept)} of its "
                f"{len(changes)} changes: {made_said(events, i)})")
    raise IllegalAction(f"already corrected so: the correction at seq {i} (by {events[i - 1].by}) "
                        f"made {said}; nothing written (`handledger history {shell_arg(hand)}` "
                        "lists it)",
                        hand=hand)


def made_in_part(events: Sequence[Any], specs: Sequence[ChangeSpec], *,
                 names: Mapping[str, str] | None = None, chip: Unit | None = None
                 ) -> tuple[int, list[int]] | None:
    """The stream seq (1-based) of the correction in force in ``events`` of which ``specs``
    are a part, and the indexes of its changes they make: each change of ``specs`` is one of
    that correction's (op, seq and event alike, read against the hand as it stood before it,
    with the correction's other changes: two ``--insert-after`` of one seq are told apart by
    their events), fewer than all of them, and no later correction in force changes their
    seqs again; None when there is none (:func:`made_already` for the whole)."""
    taken = taken_back(events)
    types = [e.type for e in events]
    for i in range(len(events), 0, -1):
        made = events[i - 1]
        if made.type != "correction" or i in taken or any(
                c.seq < i and types[c.seq - 1] in AMENDMENT_TYPES for c in made.changes):
            continue
        if (len(specs) >= len(made.changes)
                or _changed_later(events, i, {spec.seq for spec in specs}, taken)):
            continue
        kept = _made_of(events, i, specs, names, chip)
        if kept is not None:
            return i, kept
    return None


def _made_of(events: Sequence[Any], i: int, specs: Sequence[ChangeSpec],
             names: Mapping[str, str] | None, chip: Unit | None = None) -> list[int] | None:
    """The indexes (ascending) of the changes of the correction at stream seq ``i`` that
    ``specs`` make, each spec one change of its op and seq whose event it makes too: the
    correction built again from the hand before it, with ``specs`` in place of those changes,
    is the one it stored; None when no such choice of its changes is."""
    made = events[i - 1]
    stored = [c.model_dump(mode="json") for c in made.changes]
    for at in _choices(made.changes, specs):
        whole = [ChangeSpec(c.op, c.seq, json.dumps(c.event) if c.event is not None else None)
                 for c in made.changes]
        for spec, k in zip(specs, at, strict=True):
            whole[k] = spec
        try:
            again = build_correction(events[:i - 1], whole, reason=made.reason, by=made.by,
                                     keep_end=False, names=names, chip=chip)
        except IllegalAction:
            continue
        if [c.model_dump(mode="json") for c in again.changes] == stored:
            return sorted(at)
    return None


def _choices(changes: Sequence[Any], specs: Sequence[ChangeSpec]) -> Iterator[tuple[int, ...]]:
    """Each way to take for every spec of ``specs`` a distinct one of ``changes`` of its op and
    seq (the change's index, in the order of ``specs``): one way unless a correction made
    more than one change of an op and seq (``--insert-after`` of one seq, twice)."""
    groups: dict[tuple[str, int], list[int]] = {}
    for n, spec in enumerate(specs):
        groups.setdefault((spec.op, spec.seq), []).append(n)
    ways: list[list[tuple[list[int], tuple[int, ...]]]] = []
    for (op, seq), ns in groups.items():
        same = [k for k, c in enumerate(changes) if (c.op, c.seq) == (op, seq)]
        ways.append([(ns, ks) for ks in permutations(same, len(ns))])
        if not ways[-1]:
            return
    for way in product(*ways):
        at = [0] * len(specs)
        for ns, ks in way:
            for n, k in zip(ns, ks, strict=True):
                at[n] = k
        yield tuple(at)


def made_said(events: Sequence[Any], i: int) -> str:
    """The changes of the correction at stream seq ``i`` of ``events`` as it stored them, in
    ``history``'s words (:func:`replay.hand_history.change_brief`, chips as the hand writes
    them): ``replace seq 23 recorded_payout Bob 100, insert_after seq 23 recorded_payout Ann
    300``, ``delete seq 17``."""
    return _said(events, events[i - 1].changes)


def _said(events: Sequence[Any], changes: Sequence[Any]) -> str:
    """``changes`` of a correction of the hand stream ``events`` in ``history``'s words."""
    decimals = stream_decimals(events)
    return ", ".join(f"{c.op} seq {c.seq}"
                     + (f" {change_brief(c.event, decimals)}" if c.event is not None else "")
                     for c in changes)
