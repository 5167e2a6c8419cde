"""Fold a hand's events through the engine into a result, corrections applied.

:func:`fold` applies events to a new :class:`engine.state.HandState`; :func:`fold_stream`
folds a stored hand stream with its corrections and voids applied
(:func:`replay.amendments.effective_events`); :func:`replay_events` folds it and compares the
recorded payouts with the recomputed awards (:mod:`replay.compare`), giving a
:class:`replay.hand_replay.HandReplay`.

Raises:
    engine.errors.IllegalAction: an event the rules reject (the hand, its seq and the reason).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.shell import shell_arg
from replay.amendments import AMENDMENT_MODELS, Numbered, numbered_events, renumber
from replay.amendments import effective_events as effective_events  # many callers
from replay.hand_replay import HandReplay

if TYPE_CHECKING:  # loaded where a hand is settled: a live action only folds its hand
    from engine.settle import HandResult
    from replay.compare import Discrepancy


def fold_stream(events: Sequence[Any], *, original: bool = False
                ) -> tuple[HandState, list[Numbered], bool]:
    """Fold a stored hand stream (corrections applied, or the ``original`` events): its
    state, its numbered effective events and whether it was corrected.

    Raises:
        IllegalAction: the first event the rules refuse, named by its stream seq.
    """
    numbered, corrected = numbered_events(events, original=original)
    try:
        state = fold([n.event for n in numbered])
    except IllegalAction as exc:
        raise renumber(exc, numbered) from None
    return state, numbered, corrected


def _fold_effective(events: Sequence[Any], *, original: bool) -> tuple[HandState, Any, bool]:
    """:func:`fold_stream`'s state, first event and ``corrected``, without numbering the
    events of a stream that has no correction or void (each is then its own stream seq)."""
    if AMENDMENT_MODELS.isdisjoint(map(type, events)):
        return fold(events), events[0], False
    state, numbered, corrected = fold_stream(events, original=original)
    return state, numbered[0].event, corrected


def fold(events: Sequence[Any], *, upto: int | None = None) -> HandState:
    """Apply ``events`` (``hand_started`` first) to a new state; stop after ``upto`` events.

    Recorded payouts and ``hand_ended`` are applied like any event.

    Raises:
        IllegalAction: the first event that is not legal, with its seq in the hand.
    """
    if not events or events[0].type != "hand_started":
        raise IllegalAction("a hand must begin with hand_started", seq=1)
    state = HandState.start(events[0])
    stop = len(events) if upto is None else min(upto, len(events))
    apply = state.apply
    for e in events[1:stop]:
        apply(e)
    return state


def _raked(state: HandState, started: Any) -> bool:
    """Whether the file's rake of a hand with no payouts took its whole pot
    (:func:`replay.rake.took_the_pot`): it then paid nobody, as a live hand so raked."""
    source = started.source or {}
    if state.status != "complete" or ("rake" not in source and "site_rake" not in source):
        return False
    from replay.rake import took_the_pot

    return took_the_pot(state, started)


def _wrong_beside_rake(found: list[Discrepancy], state: HandState, result: HandResult,
                       started: Any, recorded: dict[str, int]) -> list[Discrepancy]:
    """``found`` (after :func:`replay.rake.classify`) of a hand that records a rake, at the
    table or in its file, whose payouts are wrong beside it: the rake stays counted, one
    ``rake`` finding, and each player paid other than the rules' awards of the pots less it
    is a ``payout`` finding (:func:`replay.rake.recorded_rake`; a site's summary says what
    the rake took from each pot, :func:`replay.rake.site_pot_rakes`). ``found`` as it is
    when the hand records no rake, when its payouts leave no room for any of it (they pay
    the whole pots and returns, or more, or the whole pots with an uncalled bet left out,
    an ``uncalled`` finding: a file's rake is then counted nowhere, README "A home game's
    rake"), or when the rules cannot award its pots less the rake."""
    source = started.source or {}
    live = state.rake is not None
    if not live and source.get("rake") is None and source.get("site_rake") is None:
        return found
    if any(d.kind == "uncalled" for d in found):
        return found
    if sum(recorded.values()) >= (sum(p.amount for p in result.pots)
                                  + sum(result.returned.values())):
        return found
    from replay.rake import filed_rake, less_rake, recorded_rake, site_pot_rakes

    rake = state.rake if live else filed_rake(started)
    if not rake:
        return found
    taken = None if live else site_pot_rakes(started, result.pots, rake)
    due = less_rake(state, result, rake, taken)
    if due is None:
        return found
    return recorded_rake(found, result, recorded, rake, due, live=live)


def replay_events(
    events: Sequence[Any], *, session: str | None = None, original: bool = False
) -> HandReplay:
    """Replay one hand stream (corrections applied; with ``original`` the events as first
    recorded) and compare with what was paid.

    Raises:
        IllegalAction: the hand's events break the rules (``seq``: the stream seq).
    """
    state, started, corrected = _fold_effective(events, original=original)
    return replay_folded(state, started, corrected=corrected, session=session)


def replay_folded(state: HandState, started: Any, *, corrected: bool = False,
                  session: str | None = None, result: HandResult | None = None) -> HandReplay:
    """:func:`replay_events` of a hand already folded: ``state`` is the state its effective
    events (``hand_started`` first: ``started``) left (an import's engine check folds every
    hand once; this settles and compares it without folding it again; ``result``:
    ``settle(state)`` when the check made it already). A hand still in
    progress (``open``) has no discrepancy: its payouts recorded so far are compared with the
    rules in a note only, and count once it ends (docs/BOOKS.md, "Net has one meaning everywhere").

    Raises:
        IllegalAction: as :func:`replay_events`.
    """
    settle, compare_payouts = _settlement()
    if result is None:
        result = settle(state)
    payouts, rake, status = state.payouts, state.rake, state.status
    recorded = _recorded(payouts)
    if recorded is None and (rake or _raked(state, started)):
        recorded = {}  # raked, nothing paid: the rake took the whole pot
    discrepancies, notes = compare_payouts(result, recorded, rake)
    due = raked = None
    if status == "complete" and (rake or "rake" in (source := started.source or {})
                                 or "site_rake" in source):
        from replay.raked_pots import due_of, rules_pots

        raked = rules_pots(state, result, started)
        due = None if raked is None else due_of(result, raked)
    if discrepancies:
        from replay.rake import classify, short_returns

        flop = any(b for b in state.cards.boards)
        discrepancies = classify(discrepancies, result, started, flop=flop, rake=rake,
                                 paid=payouts)
        # payouts short of the pots by the rake but split otherwise than the pots less it
        # are wrong beside the rake (a tie of 6 raked 1 is 3 and 2, the odd chip's as the
        # rules give it: RULES.md §2.2), as payouts the rake does not explain
        if recorded is not None and (all(d.kind != "rake" for d in discrepancies) or (
                due is not None and any(recorded.get(p, 0) != c for p, c in due.items()))):
            discrepancies = _wrong_beside_rake(discrepancies, state, result, started,
                                               recorded)
        discrepancies = short_returns(discrepancies, result, payouts)
    if not discrepancies and recorded:
        source = started.source or {}
        if rake or source.get("rake") or source.get("site_rake"):
            from replay.rake import filed_rake, unexplained

            filed = rake if rake is not None else filed_rake(started)
            discrepancies = unexplained(discrepancies, result, recorded, filed)
    if payouts and any(p.returned for p in payouts):  # returned beyond the uncalled bet
        from replay.compare import returned_beyond_uncalled

        discrepancies = [*discrepancies, *returned_beyond_uncalled(result, payouts)]
    if status == "open" and discrepancies:  # nothing is paid until it ends: a preview only
        notes.append(_in_progress_note(started.hand, discrepancies))
        discrepancies = []
    notes.extend(_unplayed_notes(status, result.carried))
    if corrected and status != "voided":  # a void is a correction: its own note says it
        notes.append("corrected")
    return HandReplay(started.hand, session or started.session, started.game, result,
                      recorded, tuple(discrepancies), (*result.notes, *notes), corrected, rake,
                      started.unit.decimals, started.unit.money(), due, raked)


def _unplayed_notes(status: str, carried: int) -> list[str]:
    """The notes of a hand cut short (``incomplete``) or voided, and of the chips carried
    into it (``carried``), which pass on to the session's next hand (RULES.md §7.1)."""
    if status == "incomplete":
        notes = ["incomplete: the log stops before the end of the hand"]
    elif status == "voided":
        notes = ["voided: every contribution returned"]
    else:
        return []
    if carried:
        notes.append(f"the {carried} chip(s) carried into it pass on to the session's next "
                     "hand (RULES.md §7.1)")
    return notes


def _in_progress_note(hand: str, found: Sequence[Discrepancy]) -> str:
    """The note of a hand still in progress whose payouts recorded so far differ from the
    rules: each difference once (without its ``hand X:``), as a preview. Its payouts count
    once it ends (docs/BOOKS.md, "Net has one meaning everywhere"), so they are no discrepancy yet:
    ``audit``, ``replay``'s count and exit code and the derived tables check them then."""
    prefix = f"hand {hand}: "
    said = "; ".join(dict.fromkeys(d.sentence().removeprefix(prefix) for d in found))
    return (f"in progress (not ended), checked once it ends (`handledger act {shell_arg(hand)} "
            "end`); "
            f"the payouts recorded so far differ from the rules: {said}")


@functools.cache
def _settlement() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``engine.settle.settle`` and ``replay.compare.compare_payouts``, imported when the first
    hand is settled (a live action folds its hand and never settles it), then kept: an import
    statement in :func:`replay_folded` would cost every replayed hand a few microseconds."""
    from engine.settle import settle
    from replay.compare import compare_payouts

    return settle, compare_payouts


def _recorded(payouts: Sequence[ev.RecordedPayout]) -> dict[str, int] | None:
    if not payouts:
        return None
    out: dict[str, int] = {}
    for p in payouts:
        out[p.player] = out.get(p.player, 0) + p.amount
    return out
