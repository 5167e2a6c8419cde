"""A row a correction inserted, as ``show`` numbers it (``23+``: after original seq 23): a
correction names a hand's original rows (README "correct"), so ``correct`` and ``whatif``
refuse to replace or delete such a row in one line naming the correction that inserted it and
the way to reach it (take that correction back with ``undo`` and correct again); inserting
after it is inserting after ``23``, which goes after the rows inserted there already.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.errors import IllegalAction
from ledger.model.shell import shell_arg
from replay.amendments import taken_back


class InsertedSeq(int):
    """Original seq ``N`` given as ``N+``: the row(s) a correction inserted after it."""

    def __str__(self) -> str:
        return f"{int(self)}+"


def inserted_row_refusal(events: Sequence[Any], op: str, seq: int) -> str:
    """Why ``op`` cannot name ``seq+`` in the hand stream ``events``: the correction in force
    that last inserted a row after original seq ``seq`` (its stream seq), which ``undo``
    takes back; or that no correction in force inserted one there."""
    seq = int(seq)  # its number: an InsertedSeq writes itself N+
    hand = events[0].hand if events and events[0].type == "hand_started" else "HAND"
    gone = taken_back(events)
    by = [k for k, e in enumerate(events, 1) if e.type == "correction" and k not in gone
          and any(c.op == "insert_after" and c.seq == seq for c in e.changes)]
    if not by:
        return (f"{op} {seq}+: no correction in force inserted a row after seq {seq} "
                f"(`handledger show {shell_arg(hand)}` numbers such a row {seq}+)")
    return (f"{op} {seq}+: seq {seq}+ is a row correction {by[-1]} inserted after seq {seq}, "
            "and a correction names the hand's original rows (those `handledger show` numbers "
            f"without +): to change it, take correction {by[-1]} back (`handledger undo "
            f"{shell_arg(hand)} --by …` takes back the last correction or void appended to the "
            "hand, an "
            "undo after it the one before) and correct again")


def original_seqs(events: Sequence[Any], specs: Sequence[Any]) -> list[Any]:
    """``specs`` (:class:`replay.correction_build.ChangeSpec`) each naming its original seq as
    a plain int: an insertion after ``23+`` is one after ``23`` (after the rows inserted there).

    Raises:
        IllegalAction: a replace or delete of ``N+`` (:func:`inserted_row_refusal`).
    """
    for spec in specs:
        if isinstance(spec.seq, InsertedSeq) and spec.op != "insert_after":
            raise IllegalAction(inserted_row_refusal(events, spec.op, spec.seq))
    return [replace(spec, seq=int(spec.seq)) for spec in specs]
