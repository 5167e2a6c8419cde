"""What a corrected hand must still be, checked before a correction is appended: a hand that
replays legally (:func:`check_replays`), the same whole hand (:func:`same_hand`: still complete,
paying out no more than its pot) and one that breaks no payout rule a live ``act`` or ``end``
holds (:func:`payout_fault`, :mod:`replay.payout_rules`) it did not break before.

Raises:
    engine.errors.IllegalAction: naming what the corrected hand breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.notation import format_amount
from ledger.model import events as ev
from replay.fold import HandReplay, replay_events
from replay.typed import reason_as_typed, stream_decimals


def payout_fault(events: Sequence[Any], correction: ev.Correction) -> str | None:
    """What a live ``act`` or ``end`` would refuse in the hand ``events`` corrected by
    ``correction`` that it did not refuse before (:func:`replay.payout_rules.new_fault`: the
    rules of :func:`replay.correction_build.payouts_as_at_the_table`), in the live refusal's
    words; None when the correction breaks none of them, or ``events`` did not replay (the
    correction repairs them).

    Raises:
        IllegalAction: the corrected hand does not replay.
    """
    from replay.fold import fold_stream
    from replay.payout_rules import new_fault

    try:
        before, was, _ = fold_stream(events)
    except IllegalAction:
        return None
    after, now, _ = fold_stream([*events, correction])
    return new_fault(before, after, [n.event for n in was], [n.event for n in now])


def same_hand(events: Sequence[Any], after: HandReplay) -> None:
    """Refuse a corrected hand that is no longer the same whole hand as ``events`` (the stream
    before the correction): a complete hand must stay complete (its end is neither removed
    nor replaced: a hand is undone with a void), and its recorded payouts and rake (recorded at
    the table, else its file's: :func:`replay.rake.filed_rake`) may not come to more than the
    chips in the pot where they did not before (RULES.md §1.2). A stream that did
    not replay is not compared (the correction repairs it).

    Raises:
        IllegalAction: naming what the correction would take away or overpay (amounts as the
            hand's actions write them: ``1.50`` in a hand kept in cents).
    """
    try:
        before = replay_events(events)
    except IllegalAction:
        return
    was, now = before.result.status, after.result.status
    if was == "complete" and now != "complete":
        raise IllegalAction(f"the corrected hand would be {now}, not complete: a correction may "
                            "not remove or replace the hand's end (insert what is missing "
                            "before it: correct --insert-after SEQ ACTION; or void the hand)")
    from replay.rake import filed_rake

    res = after.result
    pot = sum(res.contributions.values()) + res.carried_in
    filed = filed_rake(events[0]) or 0  # a file's rake, held to the rules a live one is
    rake = after.rake if after.rake is not None else filed
    paid = sum((after.recorded or {}).values()) + rake
    was = before.rake if before.rake is not None else filed
    if paid > pot and paid > sum((before.recorded or {}).values()) + was:
        def a(chips: int) -> str:  # as the hand's actions write amounts
            return format_amount(chips, stream_decimals(events))

        raked = f" (a rake of {a(rake)} with it)" if rake else ""
        raise IllegalAction(f"the corrected hand pays out {a(paid)}{raked}: the pot holds "
                            f"{a(pot)}")


def check_replays(events: Sequence[Any]) -> HandReplay:
    """Replay ``events`` (corrections applied); re-raise a refusal with the event it names
    by its seq in the hand stream (:class:`replay.amendments.Numbered`), its amounts as the hand's
    actions write them (:func:`replay.typed.reason_as_typed`: ``3.00`` in a hand kept in cents).

    Raises:
        IllegalAction: ``"the corrected hand is not legal: event N (TYPE): REASON"``.
    """
    from replay.amendments import numbered_events

    try:
        return replay_events(events)
    except IllegalAction as exc:
        numbered, _ = numbered_events(events)
        raise IllegalAction(f"the corrected hand is not legal: {_named(numbered, exc.seq)}: "
                            f"{reason_as_typed(exc, stream_decimals(events))}") from None


def _named(numbered: Sequence[Any], seq: int | None) -> str:
    """``event 12 (hand_ended)`` / ``the event inserted after seq 5 (call by Bob)``: the
    effective event of stream seq ``seq``."""
    found = [n for n in numbered if n.seq == seq]
    if not found:
        return f"event {seq}"
    n = found[-1]
    who = getattr(n.event, "player", None)
    what = f"({n.event.type}{' by ' + who if who else ''})"
    where = f"the event inserted after seq {seq}" if n.inserted else f"event {seq}"
    return f"{where} {what}"
