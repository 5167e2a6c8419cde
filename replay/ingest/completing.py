"""Completing a hand that an earlier, shorter export cut off (a PokerNow log, FORMATS.md §2).

A log exported mid-hand is imported with that hand ``incomplete`` (``hand_ended`` with status
``incomplete``: every chip goes back, the audit names it). When a longer export of the same
game comes, its copy of the hand goes on where the stored one stops. History is not rewritten:
the stored events stay and a ``correction`` is appended to the hand's stream that replaces the
``incomplete`` ending with the rest of the hand (RULES.md's correction model, as ``handledger
correct`` writes it). It is done only when the stored hand has no correction yet, is cut
(``incomplete``), and its events are, one for one, the start of the longer copy, which is
complete (provenance aside: file and line differ between exports); otherwise the hand stays
as it is and counts as already in the ledger.
"""

from __future__ import annotations

from typing import Any

from ledger.model import events as ev
from ledger.model.batch import Batch
from ledger.model.events import event_json
from ledger.store.streams import cut_hands

__all__ = ["BY", "completion", "continuation", "cut_hands"]

BY = "import"


def completion(ledger: Any, batch: Batch, source: str) -> Batch | None:
    """The batch that completes the stored, cut copy of ``batch``'s hand with the longer copy
    in ``batch`` (``source``: the file it comes from), or None when there is nothing to
    complete (see the module doc).

    Raises:
        IllegalAction: the completed hand is not legal (it was checked as a whole already, so
            this would mean the two copies disagree).
    """
    from replay.whatif import check_replays

    stream, events, hand, session, key = batch[:5]
    rows = ledger.read(hand)
    stored = [r.event for r in rows]
    if any(e.type in ("correction", "hand_voided") for e in stored):
        return None
    last = events[-1]
    if last.type == "hand_ended" and last.status == "incomplete":
        return None  # this copy is cut too
    end = stored[-1]
    n = len(stored)
    if end.type != "hand_ended" or end.status != "incomplete" or len(events) < n:
        return None
    if _facts(stored[0]) != _facts(events[0]) or [event_json(e) for e in stored[1:-1]] != [
            event_json(e) for e in events[1:n - 1]]:
        return None
    changes = [ev.Change(op="replace", seq=n, event=events[n - 1].model_dump(mode="json"))]
    changes += [ev.Change(op="insert_after", seq=n, event=e.model_dump(mode="json"))
                for e in events[n:]]
    correction = ev.Correction(
        changes=changes, positions=[rows[-1].position], by=BY,
        reason=f"completed from a longer export ({source}): the stored copy was cut off")
    check_replays([*stored, correction])
    return Batch(stream, [correction], hand, session, f"{key}:completed", batch.line)


def continuation(ledger: Any, batch: Batch) -> Batch | None:
    """A hand the ledger holds in play (imported from an export taken while it was played,
    :mod:`ledger.formats.jsonl.lines`) met again in a later copy: the batch of the events
    the later copy has beyond the stored ones, appended as ``act`` would have appended them;
    ``batch`` with no events (known: nothing to write) when the copy in the file is the
    stored hand's start, itself in play (an earlier export); None otherwise (the copies
    differ). Only when the stored events are one for one the file copy's start (the stored
    hand then with no end, void or correction), or the file copy, with none, is the start of
    them; provenance aside.
    """
    stream, events, hand, session, key = batch[:5]
    rows = ledger.read(hand)
    stored = [r.event for r in rows]
    n = min(len(stored), len(events))
    if rows[0].session != session or _facts(stored[0]) != _facts(events[0]) or [
            event_json(e) for e in stored[1:n]] != [event_json(e) for e in events[1:n]]:
        return None
    ends = ("hand_ended", "hand_voided", "correction")
    if len(events) <= len(stored):  # an earlier copy, taken while the hand was played
        return None if any(e.type in ends for e in events) else batch.with_events(None)
    if any(e.type in ends for e in stored):
        return None
    return Batch(stream, list(events[n:]), hand, session, f"{key}:from:{n + 1}", batch.line)


def _facts(started: Any) -> str:
    """A ``hand_started`` without its provenance (file, line: another export differs there)."""
    return event_json(started.model_copy(update={"source": {}}))
