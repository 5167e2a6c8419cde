"""A row a correction inserted, as ``show`` numbers it (``23+``: the one row inserted after
original seq 23; ``23+1``, ``23+2``: each of several, :attr:`replay.steps.Step.label`): a
correction names a hand's original rows (README "correct"), so ``correct`` and ``whatif``
refuse to replace or delete such a row in one line naming the correction that inserted it and
the way to reach it (take that correction back with ``undo`` and correct again); inserting
after it is inserting after ``23``, which goes after the rows inserted there already. A label
naming a row the hand does not have (``23+3`` after two rows) is refused naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import IllegalAction
from ledger.model.shell import shell_arg
from replay.amendments import numbered_events, taken_back


class InsertedSeq(int):
    """Original seq ``N`` given as ``N+`` (the row(s) a correction inserted after it) or as
    ``N+K`` (``nth`` K, from 1: the K-th of them, as ``show`` labels several)."""

    nth: int | None

    def __new__(cls, seq: int, nth: int | None = None) -> InsertedSeq:
        made = super().__new__(cls, seq)
        made.nth = nth
        return made

    def __str__(self) -> str:
        return f"{int(self)}+{self.nth or ''}"


def rows_inserted_after(events: Sequence[Any], seq: int) -> int:
    """How many rows the corrections in force inserted after original seq ``seq`` of the hand
    stream ``events`` (``show`` labels one ``seq+``, several ``seq+1``, ``seq+2``, …)."""
    return sum(1 for n in numbered_events(events)[0] if n.inserted and n.seq == seq)


def inserted_row_refusal(events: Sequence[Any], op: str, seq: int) -> str:
    """Why ``op`` cannot name ``seq`` (an :class:`InsertedSeq`, ``N+`` or ``N+K``; a plain
    int as ``N+``) in the hand stream ``events``: no row there by that label (none inserted
    after original seq N, or fewer than K), naming it and the rows ``show`` labels there;
    else the correction in force that last inserted a row after seq N (its stream seq),
    which ``undo`` takes back."""
    label = str(seq) if isinstance(seq, InsertedSeq) else f"{int(seq)}+"
    nth = seq.nth if isinstance(seq, InsertedSeq) else None
    seq = int(seq)
    hand = events[0].hand if events and events[0].type == "hand_started" else "HAND"
    gone = taken_back(events)
    by = [k for k, e in enumerate(events, 1) if e.type == "correction" and k not in gone
          and any(c.op == "insert_after" and c.seq == seq for c in e.changes)]
    if not by:
        return (f"{op} {label}: no correction in force inserted a row after seq {seq} "
                f"(`handledger show {shell_arg(hand)}` numbers such a row {seq}+)")
    count = rows_inserted_after(events, seq)
    if nth is not None and nth > count:
        show = f"`handledger show {shell_arg(hand)}`"
        shown = (f"one row, which {show} numbers {seq}+" if count == 1 else
                 f"{count} rows, which {show} numbers {seq}+1 to "
                 f"{seq}+{count}")
        return (f"{op} {label}: the hand has no row {label}: the corrections in force "
                f"inserted {shown}, after seq {seq}")
    return (f"{op} {label}: seq {label} is a row correction {by[-1]} inserted after seq {seq}, "
            "and a correction names the hand's original rows (those `handledger show` numbers "
            f"without +): to change it, take correction {by[-1]} back (`handledger undo "
            f"{shell_arg(hand)} --by …` takes back the last correction or void appended to the "
            "hand, an "
            "undo after it the one before) and correct again")


def original_seqs(events: Sequence[Any], specs: Sequence[Any]) -> list[Any]:
    """``specs`` (:class:`replay.correction_build.ChangeSpec`) each naming its original seq as
    a plain int: an insertion after ``23+`` (or ``23+2``) is one after ``23`` (after the rows
    inserted there).

    Raises:
        IllegalAction: a replace or delete of ``N+`` or ``N+K``, or any change naming ``N+K``
            the hand has no row for (:func:`inserted_row_refusal`).
    """
    for spec in specs:
        if not isinstance(spec.seq, InsertedSeq):
            continue
        missing = spec.seq.nth is not None and spec.seq.nth > rows_inserted_after(
            events, int(spec.seq))
        if spec.op != "insert_after" or missing:
            raise IllegalAction(inserted_row_refusal(events, spec.op, spec.seq))
    return [replace(spec, seq=int(spec.seq)) for spec in specs]
