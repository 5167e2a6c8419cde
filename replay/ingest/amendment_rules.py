"""A file's corrections held to the rules ``correct`` and ``undo`` hold them to, checked
before anything of the file is written (README, "What is in the ledger": a correction is held
to the payout rules of a live ``act`` and ``end``; "JSON lines").

What a hand's file records of the table (a payout to a player who folded, a pot paid short)
is stored as played, with its audit finding; an amendment is a host's act after the hand and
is held to the rules the command that makes it holds it to, signed or not. Each correction of
a JSON-lines hand is checked against the hand's rows before it as the file gives them:

* the correction a ``void`` writes with its void (it only deletes, and the next row is the
  ``hand_voided``) drops the hand's end and is held only to the engine's rules (the voided
  hand replays);
* one that takes back amendments only (every change deletes a correction or void: ``undo``)
  to ``undo``'s: the hand without them replays and stays whole
  (:func:`replay.corrected_hand.same_hand`), unless it is voided again;
* any other to ``correct``'s: the corrected hand's forced bets still fit its seats when
  they did (:func:`replay.forced_fit.fit_fault`, RULES.md §4.2), it replays, stays whole and
  pays out no more than the pot (:func:`replay.corrected_hand.same_hand`), and breaks no
  payout rule of a live ``act`` or ``end`` it did not break before
  (:func:`replay.corrected_hand.payout_fault`: a payout to a player who folded, beyond what
  he can win, a pot paid short).

A hand whose rows before the correction do not replay is not checked (the correction repairs
it), as ``correct`` does not compare such a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from ledger.formats.reading import FileRead, HandEvents
from ledger.model import events as ev
from ledger.model.errors import IllegalHand


def check_amendments(read: FileRead) -> None:
    """Refuse the file ``read`` when one of its corrections breaks the rules its command
    holds it to (module doc).

    Raises:
        IllegalHand: the first such correction, naming file, line, hand and the correction
            (its seq, ``by`` and changes), then the rule's words (``Cy folded: …``), and that
            nothing of the file was written.
    """
    for item in read.items:
        if not isinstance(item, HandEvents) or not item.events:
            continue
        if item.events[0].type != "hand_started":
            continue
        for index, event in enumerate(item.events):
            if event.type != "correction":
                continue
            fault = refusal(item.events, index)
            if fault is not None:
                raise IllegalHand(
                    f"its correction at seq {index + 1} (by {event.by}: "
                    f"{_changes(item.events, event)}) breaks a rule `correct` holds a correction "
                    f"to: {fault}; nothing of the file was written",
                    file=read.file, line=item.lines[index], hand=item.hand_id)


def refusal(events: Sequence[Any], index: int) -> str | None:
    """Why the correction ``events[index]`` would be refused after ``events[:index]`` (module
    doc), in the words of the command's refusal; None when it goes in."""
    from replay.corrected_hand import payout_fault, same_hand
    from replay.fold import replay_events
    from replay.typed import reason_as_typed, stream_decimals

    before, correction = list(events[:index]), events[index]
    try:
        replay_events(before)
    except IllegalAction:
        return None  # the correction repairs a stream that did not replay
    try:
        after = replay_events([*before, correction])
    except IllegalAction as exc:
        said = reason_as_typed(exc, stream_decimals(before))
        return f"the corrected hand is not legal: event {exc.seq}: {said}"
    nxt = events[index + 1] if index + 1 < len(events) else None
    if nxt is not None and nxt.type == "hand_voided" \
            and all(c.op == "delete" for c in correction.changes):
        return None  # a void's correction: it drops the end, the void follows
    try:
        if _takes_back(before, correction):
            if after.result.status != "voided":
                same_hand(before, after)
            return None
        fault = _forced_bets_fault(before, correction)
        if fault is not None:
            return fault
        same_hand(before, after)
        return payout_fault(before, correction)
    except IllegalAction as exc:
        return exc.reason


def _forced_bets_fault(before: Sequence[Any], correction: ev.Correction) -> str | None:
    """:func:`replay.forced_fit.fit_fault` of the hand ``before`` and as ``correction`` makes
    it, with the advice the file's row takes, as ``correct`` refuses it (RULES.md §4.2: a
    hand whose forced bets fitted its seats is not corrected into one whose do not); None
    for a hand voided with it (it posts nothing)."""
    from replay.amendments import effective_events
    from replay.forced_fit import fit_fault

    after = effective_events([*before, correction])[0]
    if after and after[-1].type == "hand_voided":
        return None
    fault = fit_fault(effective_events(before)[0], after)
    if fault is None:
        return None
    return (f"{fault}; correct the forced bets in the same correction, a change of each, or "
            "keep the seats, button and stacks they were posted from")


def _takes_back(before: Sequence[Any], correction: ev.Correction) -> bool:
    """Whether ``correction`` only takes back amendments (every change deletes a correction or
    a void of ``before``): an ``undo`` of one."""
    kinds = {before[c.seq - 1].type if 1 <= c.seq <= len(before) else None
             for c in correction.changes if c.op == "delete"}
    return (bool(correction.changes) and all(c.op == "delete" for c in correction.changes)
            and kinds <= {"correction", "hand_voided"})


def _changes(events: Sequence[Any], correction: ev.Correction) -> str:
    """The changes of ``correction`` in a few words (``replace seq 16 recorded_payout Cy
    300``), amounts as the hand's actions write them."""
    from replay.hand_history import change_brief
    from replay.typed import stream_decimals

    decimals = stream_decimals(events)
    return ", ".join(f"{c.op} seq {c.seq}" + (
        f" {change_brief(c.event, decimals)}" if c.event is not None else "")
        for c in correction.changes)
