"""Fold a hand's events through the engine into a result, corrections applied.

The events of a hand stream are the originals followed by any ``correction`` or
``hand_voided`` events. :func:`effective_events` applies every correction in order (each
names original events by their sequence number; the originals stay in the ledger) and returns
the events the hand is replayed from. :func:`replay_events` folds them and compares the
recorded payouts with the recomputed awards (:mod:`replay.compare`).

Raises:
    engine.errors.IllegalAction: an event the rules reject (the hand, its seq and the reason).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model import events as ev

if TYPE_CHECKING:  # loaded where a hand is settled: a live action only folds its hand
    from engine.settle import HandResult
    from replay.compare import Discrepancy

_CHANGES = frozenset({"correction", "hand_voided"})  # events that change a hand's stream
#: Their models: a stream has none of them when none of its events is of these classes (an
#: event's ``type`` is its model's; looking up ``type`` costs every replayed hand about 0.5 us)
_CHANGE_MODELS = frozenset({ev.Correction, ev.HandVoided})


@dataclass(frozen=True)
class HandReplay:
    """A replayed hand: the engine's result, the recorded payouts per player (chips, ``None``
    when the source recorded none), the discrepancies (values, never exceptions) and notes
    such as "showdown not verifiable"; ``rake``: the rake recorded at the table (chips, a
    ``recorded_rake``), None when none was. A hand that records a rake records its payouts:
    with none, ``recorded`` is ``{}``, nobody paid (the rake took the whole pot), never
    unknown; so too a file's rake of the whole pot with no payouts (an import refuses any
    other rake without them). ``decimals``: those of the hand's unit (2: a file in dollars and
    cents, whose chips are cents; FORMATS.md §1); ``unit``: that unit whole, ``(minor units a
    chip is worth, currency, decimals)``, what a chip of a hand of no session is worth.
    ``due``: the rules' awards and returns once the rake the hand records (at the table or in
    its file) is taken, ``{player: chips}`` (:func:`replay.rake.rules_due`), None when it
    records none or they cannot be so awarded: the rules' result is then the whole pots'."""

    hand: str
    session: str | None
    game: str
    result: HandResult
    recorded: dict[str, int] | None
    discrepancies: tuple[Discrepancy, ...]
    notes: tuple[str, ...]
    corrected: bool = False
    rake: int | None = None
    decimals: int = 0
    unit: tuple[int, str | None, int] = (1, None, 0)
    due: dict[str, int] | None = None

    def __init__(self, hand: str, session: str | None, game: str, result: HandResult,
                 recorded: dict[str, int] | None, discrepancies: tuple[Discrepancy, ...],
                 notes: tuple[str, ...], corrected: bool = False, rake: int | None = None,
                 decimals: int = 0, unit: tuple[int, str | None, int] = (1, None, 0),
                 due: dict[str, int] | None = None) -> None:
        # the fields above, written as the generated __init__ would (one made per replayed
        # hand: the frozen dataclass's own sets each through object.__setattr__, twice the
        # time); a new field goes here too
        self.__dict__.update(hand=hand, session=session, game=game, result=result,
                             recorded=recorded, discrepancies=discrepancies, notes=notes,
                             corrected=corrected, rake=rake, decimals=decimals, unit=unit,
                             due=due)

    @property
    def net(self) -> dict[str, int]:
        """Each player's chips won (+) or lost (−) in the hand. From the engine when the
        showdown is verifiable; from the recorded payouts when it is not (their feasibility
        is reported as discrepancies); an unverifiable hand with no payouts nets only its
        returned chips. A hand still in progress (``open``) has nobody paid yet: each player's
        net is minus what he put in so far (README, "Net has one meaning everywhere"), the
        rules' result of its pots counts once it ends. A hand that records a rake: the rules'
        result once it is taken (:attr:`due`)."""
        r = self.result
        if r.status == "open":
            return {p: -r.contributions[p] for p in r.players}
        if self.due is not None:
            due, put_in = self.due, r.contributions
            return {p: due[p] - put_in[p] for p in r.players}
        if r.verifiable or self.recorded is None:
            return dict(r.net)
        return {p: self.recorded.get(p, 0) - r.contributions[p] for p in r.players}

    @property
    def carried_on(self) -> int:
        """Chips this hand passes to the session's next hand (RULES.md §3.8, §7.1): those its
        ``carry_over`` (out) records, else those it leaves for the next hand to claim
        (:func:`replay.compare.carried_on`: what the rules carry, less any the table paid
        out; a voided or incomplete hand's, the chips carried into it)."""
        r = self.result
        if r.carried_out:
            return r.carried_out
        if not r.carried:
            return 0
        from replay.compare import carried_on

        return carried_on(r, self.recorded, self.rake)

    @property
    def final_stacks(self) -> dict[str, int]:
        """Each player's stack after the hand by the rules (starting + :attr:`net`)."""
        return {p: self.result.starting[p] + n for p, n in self.net.items()}

    @property
    def paid(self) -> dict[str, int] | None:
        """The chips the table pushed to each player (pots and uncalled bets): the recorded
        payouts; the engine's awards and returns when none were recorded and the showdown is
        verifiable; every contribution back for a voided or incomplete hand (recorded payouts
        of a voided hand count for nothing); nothing yet for a hand still in progress, though
        the betting is over or payouts are recorded (they count once it ends). None when
        unknown (an unverifiable showdown with no payouts recorded)."""
        r = self.result
        status, recorded = r.status, self.recorded
        if status == "open":
            return dict.fromkeys(r.players, 0)
        if status not in ("voided", "incomplete") and recorded is not None:
            return {p: recorded.get(p, 0) for p in r.players}
        if r.verifiable or status in ("voided", "incomplete"):
            awards, returned = r.awards, r.returned
            return {p: awards[p] + returned.get(p, 0) for p in r.players}
        return None

    @property
    def paid_net(self) -> dict[str, int]:
        """**The books' net** of each player in this hand: what the table paid him minus what
        he put in (:attr:`paid`), the rules' :attr:`net` when the payouts are unknown. It is
        what balances, standings, settle-up and the chart add up; where it differs from the
        rules' net the audit reports a ``payout`` finding, and a correction moves it."""
        return self._paid_net(self.paid)

    def books(self) -> tuple[dict[str, int] | None, dict[str, int], dict[str, int]]:
        """``(paid, net, paid_net)``: :attr:`paid`, :attr:`net` and :attr:`paid_net` (each a
        new dict), ``paid`` worked out once for the two."""
        paid = self.paid
        return paid, self.net, self._paid_net(paid)

    def _paid_net(self, paid: dict[str, int] | None) -> dict[str, int]:
        if paid is None:
            return self.net
        put_in = self.result.contributions
        return {p: paid[p] - put_in[p] for p in self.result.players}

    def as_json(self) -> dict[str, Any]:
        """The stable JSON shape of the hand (``replay --json``; README, "replay --json"):
        hand, session, game, status, verifiable, pots (amount, eligible, awards, carried,
        explanation), returned, carried, net, final_stacks, recorded, discrepancies (player,
        recorded, recomputed, diff, kind, message), declarations, notes. Chips throughout."""
        res = self.result
        return {
            "hand": self.hand,
            "session": self.session,
            "game": self.game,
            "status": res.status,
            "verifiable": res.verifiable,
            "pots": [
                {"amount": p.amount, "eligible": list(p.eligible), "awards": dict(p.awards),
                 "carried": p.carried, "explanation": list(p.lines)}
                for p in res.pots
            ],
            "returned": dict(res.returned),
            "carried": res.carried,
            "net": self.net,
            "final_stacks": self.final_stacks,
            "recorded": self.recorded,
            "discrepancies": [
                {"player": d.player, "recorded": d.recorded, "recomputed": d.recomputed,
                 "diff": d.diff, "kind": d.kind, "message": d.sentence()}
                for d in self.discrepancies
            ],
            "declarations": dict(res.declarations),
            "notes": list(self.notes),
        }


def replay_json(replay: HandReplay) -> dict[str, Any]:
    """:meth:`HandReplay.as_json` as a function (a renderer for :mod:`replay.replaying`)."""
    return replay.as_json()


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
                if e.type not in _CHANGES], False
    if _CHANGE_MODELS.isdisjoint(map(type, events)):
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
        if e.type not in _CHANGES:
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
        return change.seq < i and types[change.seq - 1] in _CHANGES

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
                        and prefix[c.seq - 1].type not in _CHANGES):
                    set_by[c.seq] = k
    out: dict[int, tuple[Any, int | None]] = {}
    for k, e in enumerate(prefix, 1):
        if e.type not in _CHANGES:
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
    if _CHANGE_MODELS.isdisjoint(map(type, events)):
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
    rules in a note only, and count once it ends (README, "Net has one meaning everywhere").

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
    if discrepancies:
        from replay.rake import classify

        flop = any(b for b in state.cards.boards)
        discrepancies = classify(discrepancies, result, started, flop=flop, rake=rake,
                                 paid=payouts)
        if recorded is not None and all(d.kind != "rake" for d in discrepancies):
            discrepancies = _wrong_beside_rake(discrepancies, state, result, started,
                                               recorded)
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
    if corrected:
        notes.append("corrected")
    due = None
    if status == "complete" and (rake or "rake" in (source := started.source or {})
                                 or "site_rake" in source):
        from replay.rake import rules_due

        due = rules_due(state, result, started)
    return HandReplay(started.hand, session or started.session, started.game, result,
                      recorded, tuple(discrepancies), (*result.notes, *notes), corrected, rake,
                      started.unit.decimals, started.unit.money(), due)


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
    once it ends (README, "Net has one meaning everywhere"), so they are no discrepancy yet:
    ``audit``, ``replay``'s count and exit code and the derived tables check them then."""
    prefix = f"hand {hand}: "
    said = "; ".join(dict.fromkeys(d.sentence().removeprefix(prefix) for d in found))
    return (f"in progress (not ended), checked once it ends (`handledger act {hand} end`); "
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
