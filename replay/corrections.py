"""Correcting, voiding and undoing a recorded hand without rewriting history.

A correction or a void is a new event appended to the hand's stream; the original events stay
and replay, the audit and the exports read the hand through
:func:`replay.amendments.effective_events`. A correction is refused (nothing is written) when the
corrected hand does not replay legally, or does what :mod:`replay.correction_checks` refuses.
:mod:`replay.hand_history` tells a hand's history.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.errors import locating
from ledger.model.shell import shell_arg
from ledger.store import signing
from ledger.store.keys import KeyStore
from ledger.store.proven import prove_before_writing
from ledger.store.streams import hand_sessions, platform_names
from replay.amendment_kinds import taken_back, undo_writes
from replay.amendments import AMENDMENT_TYPES, effective_events, split_stream
from replay.carry import carried_undo_refused
from replay.corrected_hand import check_replays, same_hand
from replay.correction_build import ChangeSpec, build_correction, refuse_under_void
from replay.correction_checks import (
    carried_in_dropped,
    carried_taken,
    closed_books,
    closed_moves,
    closed_void,
    no_buy_in_retracted_since,
    no_entries_since,
    no_other_hand_in_play,
    not_counted_twice,
    passed_on_reach,
)
from replay.correction_twice import refuse_made_already
from replay.fold import HandReplay, replay_events
from replay.hand_history import brief
from replay.later_hands import reopened_followed, stacks_followed, void_downstream
from replay.started_changes import start_moved
from replay.stored_unit import export_chip
from replay.typed import reason_as_typed, stream_decimals
from replay.whatif import Downstream, compare, paid_net

T = TypeVar("T")


@dataclass(frozen=True)
class Corrected:
    """A correction appended at ``seq``: the hand before (None when its stream did not replay:
    a correction repairs it) and after, and the later hands of its session whose starting
    stacks no longer follow; ``took_back``: what an undo took back, in words (``"seq 7
    (bet_raise Bob 4)"``, ``"the void of seq 26 (by floor: misdeal)"``)."""

    seq: int
    before: HandReplay | None
    after: HandReplay
    downstream: list[Downstream]
    took_back: str | None = None
    #: the hand after it, still in play: what it waits for, as ``state`` says it
    #: (:func:`replay.live.state.legal_now`: ``"phase declare, Ann to act: Ann dcl
    #: high|low|swing or Ann f (give up)"``); "" for a hand that is over
    waits: str = ""
    #: what it changed in the hand's start in force, in words (``seat Bob's stack 15 →
    #: 150``: :func:`replay.started_changes.start_moved`); empty when the start stays
    start: tuple[str, ...] = ()

    @property
    def moved(self) -> dict[str, dict[str, int]] | None:
        """What moved, in chips: ``{"net": {player: change}, "paid": {player: change}}`` of
        the rules' net and of the net as the table paid it (:func:`replay.whatif.paid_net`),
        players whose number did not move left out, and so are those whose rules' net a
        showdown that cannot be checked leaves unknown (:attr:`unknown`); None when the hand
        did not replay before."""
        return _moved(self.before, self.after)

    @property
    def unknown(self) -> tuple[Any, Any, bool]:
        """``(before, after, same)``: :class:`replay.unknown_rules.UnknownResult` of the hand
        before (None when it did not replay) and after when its showdown cannot be checked,
        else None; ``same``: the rules' result is the same before and after, known or not
        (:func:`replay.unknown_rules.same_rules`)."""
        return _unknown(self.before, self.after)


def _moved(before: HandReplay | None, after: HandReplay) -> dict[str, dict[str, int]] | None:
    """:attr:`Corrected.moved` of a hand ``before`` and ``after`` an amendment."""
    if before is None:
        return None
    from replay.unknown_rules import rules_nets

    b, a = paid_net(before), paid_net(after)
    return {"net": {p: n for p, n in rules_nets(before, after)[2].items() if n},
            "paid": {p: a[p] - b[p] for p in a if a[p] != b[p]}}


def _unknown(before: HandReplay | None, after: HandReplay) -> tuple[Any, Any, bool]:
    """:attr:`Corrected.unknown` of a hand ``before`` and ``after`` an amendment."""
    from replay.unknown_rules import same_rules, unknown_result

    if before is None:
        return None, unknown_result(after), False
    return unknown_result(before), unknown_result(after), same_rules(before, after)


def _about_the_hand(command: Callable[..., T]) -> Callable[..., T]:
    """``command(ledger, hand, ...)``, a deliberate write, run once the ledger is proven
    intact (:func:`ledger.store.proven.prove_before_writing`: a broken chain is the
    file's refusal, naming no hand), its refusals naming ``hand`` when they do not yet.
    ``closed=True`` given for a hand of a session that is open is refused first, naming the
    command as typed (``void h1 --closed``, the command's name being the function's:
    :func:`closed_flag_on_hands`)."""

    @functools.wraps(command)
    def named(ledger: Any, hand: str, *args: Any, **kwargs: Any) -> T:
        prove_before_writing(ledger)
        if kwargs.get("closed"):
            closed_flag_on_hands(ledger, [hand], command.__name__)
        with locating(hand=hand):
            return command(ledger, hand, *args, **kwargs)

    return named


def closed_flag_on_hands(ledger: Any, hands: Sequence[str], command: str) -> None:
    """Refuse ``--closed`` given to ``command`` (``correct``, ``void``, ``undo``) of ``hands``
    when it lets in nothing: no hand of a closed session and one of an open session
    (:func:`replay.sessions.state.closed_flag_on_hand`). A hand the ledger does not hold is
    passed over (the command names it).

    Raises:
        LedgerError: ``void h1 --closed: session s is open: --closed is for a closed
            session's books; nothing written (leave out --closed)``.
    """
    from replay.sessions.state import closed_flag_on_hand

    sessions = hand_sessions(ledger, hands)
    typed = " ".join([command, *map(shell_arg, hands), "--closed"])
    closed_flag_on_hand(ledger, [sessions.get(h) for h in hands], typed)


@_about_the_hand
def correct(ledger: Any, hand: str, specs: Sequence[ChangeSpec], *, reason: str,
            by: str, keys: KeyStore | None = None, sign: str | None = None,
            closed: bool = False) -> Corrected:
    """Append a correction of ``hand`` made of ``specs`` (:mod:`replay.correction_build`),
    signed with the key ``sign`` of ``keys`` when given (:mod:`ledger.store.signing`).
    ``closed``: go in though the hand's session is closed and the hand, paid by the rules
    until now, would then be paid differently, or a player's net or the hand's rake would
    move (:func:`replay.correction_checks.closed_moves`). An action may name a player known
    by a platform id as the reads show him (:func:`replay.action_text.parse_action`).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        LedgerError: ``closed`` given for a hand of a session that is open
            (:func:`closed_flag_on_hands`); nothing written.
        NotFound: no such hand, or no private key ``sign``; IllegalAction: a change that is
            not legal, a corrected hand the engine rejects, one that changes nothing (the
            hand's events in force the same with it), one that changes what the hand
            carries to the session's next hand once a later hand started
            (:func:`replay.carry.carry_kept`), one of a hand in play whose payouts take
            chips its pot carries that takes none back
            (:func:`replay.payout_rules.payouts_of_carried_kept`), or, without ``closed``, a
            clean hand of a closed session made paid wrong or one whose nets or rake move
            (nothing written), or the changes a correction in force made already, all or a part
            (:func:`replay.correction_twice.refuse_made_already`).
    """
    rows = ledger.read(hand)
    events = [r.event for r in rows]
    positions = {r.seq: r.position for r in rows}
    names = platform_names(ledger)
    chip = export_chip(ledger, events[0])
    refuse_made_already(hand, events, specs, names=names, chip=chip)
    correction = build_correction(events, specs, reason=reason, by=by, positions=positions,
                                  names=names, chip=chip)
    _changes_something(hand, events, correction)
    [correction] = _signed(hand, events, [correction], keys, sign)
    return _append(ledger, hand, rows, correction, closed=closed)


def _changes_something(hand: str, events: Sequence[Any], correction: ev.Correction) -> None:
    """Refuse ``correction`` when the hand's events in force are the same with it as without
    (the same correction given twice, an action replaced by itself), or when the hand is
    voided with it and without (a voided hand moves no chip: README, "correct" and "void"): it
    would be a row of history that changes nothing.

    Raises:
        IllegalAction: "changes nothing" or "the hand is voided", naming the hand.
    """
    refuse_under_void(hand, events, correction)
    try:
        before, _ = effective_events(events)
    except IllegalAction:  # a broken stream: this correction repairs it
        return
    after, _ = effective_events([*events, correction])
    if after == before:
        raise IllegalAction(
            "changes nothing: the hand's events in force would be the same with this "
            f"correction (`handledger history {shell_arg(hand)}` lists its corrections); nothing "
            "written",
            hand=hand)


def _append(ledger: Any, hand: str, rows: Sequence[Any], correction: ev.Correction,
            took_back: str | None = None, *, closed: bool = False) -> Corrected:
    """Append ``correction`` (already checked) after ``rows``; what it moved. Refused, unless
    ``closed``, when the hand's session is closed and it moves a player's net or the hand's
    rake (:func:`replay.correction_checks.closed_moves`), or makes a clean hand paid wrong
    (:func:`replay.correction_checks.closed_books`)."""
    events = [r.event for r in rows]
    after = replay_events([*events, correction])
    try:
        before = replay_events(events)
    except IllegalAction:  # a broken stream, which this correction repairs
        before = None
    doing = f"undoing {took_back} of hand {hand}" if took_back else f"correcting hand {hand}"
    if before is not None:
        from replay.carry import carry_kept
        from replay.payout_rules import payouts_of_carried_kept

        carry_kept(ledger, hand, rows[0].session, before, after, doing, way=True)
        payouts_of_carried_kept(hand, events, correction, doing)
    if not closed and before is not None:
        if not before.discrepancies and after.discrepancies:
            closed_books(ledger, hand, rows[0].session, after)
        closed_moves(ledger, hand, rows[0].session, before, after, doing)
    downstream = (compare(ledger, hand, rows, correction).downstream
                  if rows[0].session and before is not None else [])
    ledger.append(hand, [correction], hand_id=hand, expected_seq=rows[-1].seq)
    waits = _waits([*events, correction]) if after.result.status == "open" else ""
    return Corrected(rows[-1].seq + 1, before, after, downstream, took_back, waits,
                     start_moved(events, correction))


def _waits(events: Sequence[Any]) -> str:
    """What the hand ``events`` (its stream, in play) waits for, as ``state`` says it
    (:func:`replay.live.state.legal_now`): whose turn and what he may do."""
    from replay.fold import fold_stream
    from replay.live.state import legal_now

    return legal_now(fold_stream(events)[0])


@dataclass(frozen=True)
class Voided:
    """A void appended: the hand as it leaves it, and the later hands of its session whose
    starting stacks no longer follow (a finished hand voided: warned of, as :class:`Corrected`
    names them). ``before``: the hand before the void, None when its stream did not replay
    (the books counted none of its chips); :attr:`moved` and :attr:`unknown` as
    :class:`Corrected` gives them, so that ``void`` prints what moved as ``correct`` does."""

    hand: HandReplay
    downstream: list[Downstream]
    before: HandReplay | None = None

    @property
    def after(self) -> HandReplay:
        """The hand as the void leaves it (:attr:`hand`)."""
        return self.hand

    @property
    def moved(self) -> dict[str, dict[str, int]] | None:
        """As :attr:`Corrected.moved`, of the void."""
        return _moved(self.before, self.hand)

    @property
    def unknown(self) -> tuple[Any, Any, bool]:
        """As :attr:`Corrected.unknown`, of the void."""
        return _unknown(self.before, self.hand)


@_about_the_hand
def void(ledger: Any, hand: str, *, reason: str, by: str, keys: KeyStore | None = None,
         sign: str | None = None, closed: bool = False) -> Voided:
    """Void ``hand``: every contribution goes back; its events stay. For an ended hand the
    void comes with a correction that deletes its ``hand_ended`` (same reason and author),
    since the engine takes no ``hand_voided`` after the end. Both are signed with the key
    ``sign`` of ``keys`` when given. Returns the voided hand and, for a finished hand, the
    later hands of its session whose starting stacks the void leaves the books no longer
    following (:func:`replay.later_hands.void_downstream`). ``closed``: go in though the
    hand's session is closed and the void moves a player's net (chips), as for
    :func:`correct`.

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        LedgerError: ``closed`` given for a hand of a session that is open
            (:func:`closed_flag_on_hands`); nothing written.
        NotFound, IllegalAction: as :func:`void_checked` (nothing written).
    """
    done = void_checked(ledger, hand, reason=reason, by=by, keys=keys, sign=sign,
                        closed=closed)
    done.append(ledger)
    return done.voided


@dataclass(frozen=True)
class VoidChecked:
    """A void of ``hand`` checked and not yet appended: its rows (``events``, signed when
    asked) to append after the stream's seq ``expected_seq``, and what it does
    (:class:`Voided`); ``session`` and ``stored``: the hand's session and its events before
    the void."""

    hand: str
    events: list[Any]
    expected_seq: int
    voided: Voided
    session: str | None
    stored: list[Any]

    def append(self, ledger: Any) -> None:
        """Append the void's rows to the hand's stream (refused when the stream moved)."""
        ledger.append(self.hand, self.events, hand_id=self.hand,
                      expected_seq=self.expected_seq)


def void_checked(ledger: Any, hand: str, *, reason: str, by: str,
                 keys: KeyStore | None = None, sign: str | None = None,
                 closed: bool = False, look_later: bool = True,
                 together: Collection[str] = (), rows: Sequence[Any] | None = None,
                 takers: Mapping[str, str] | None = None) -> VoidChecked:
    """The void of ``hand`` as :func:`void` appends it, every check made, nothing written
    and nothing proven (the caller proves the ledger first:
    :func:`ledger.store.proven.prove_before_writing`). Reads the ledger as it stands, so a
    void of many hands in one write (:mod:`replay.voiding`) checks each after the voids
    appended before it. ``look_later`` False: the later hands whose start the void leaves
    unfollowed are not looked for (the caller looks once every void is appended).
    ``together``: the hands voided in the same write (:mod:`replay.voiding`, the latest
    first): chips this hand carried to them alone go back to its players with the rest (the
    void drops its ``carry_over`` out), and chips carried into it from one of them are
    nobody's (the void drops its ``carry_over`` in: it passes nothing on; RULES.md §7.1).
    ``rows``: the hand's stored rows, read by the caller (:func:`ledger.store.streams.
    read_streams`, once for many hands); ``takers``: :func:`replay.carry.takers`, read once.

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: the hand is already
            voided, or a later hand not of ``together`` took the chips it carried to the
            next hand (:func:`replay.correction_checks.carried_taken`), or it would pass chips
            carried into it on while a later hand of its session has started
            (:func:`replay.correction_checks.passed_on_reach`), or a later hand of its session
            started while it was in play on stacks the void would leave the books unable to
            follow (:func:`replay.later_hands.stacks_followed`), or it is in a closed session
            and the void would move a player's net, without ``closed``
            (:func:`replay.correction_checks.closed_void`).
    """
    if rows is None:
        rows = ledger.read(hand)
    events = [r.event for r in rows]
    if split_stream(events)[2]:
        raise IllegalAction("the hand is already voided", hand=hand)
    to_them = carried_taken(ledger, hand, "a void returns every contribution", together,
                            voiding=True, takers=takers)
    carried = {r.seq for r in rows if r.type == "carry_over" and (
        to_them if r.event.direction == "out" else r.event.other_hand in together)}
    drop = ({r.seq for r in rows if r.type == "hand_ended"} | carried
            | _past_the_break(events))
    if any(r.seq in carried and r.event.direction == "in" for r in rows):
        drop |= _past_the_dropped_carry(events, drop)
    new: list[Any] = []
    if drop:
        specs = [ChangeSpec("delete", seq) for seq in sorted(drop)]
        new.append(build_correction(events, specs, reason=f"void: {reason}", by=by,
                                    positions={r.seq: r.position for r in rows},
                                    keep_end=False, drop_carried=bool(carried)))
    new.append(ev.HandVoided(reason=reason, by=by))
    result = check_replays([*events, *new])
    passed_on_reach(ledger, hand, rows[0].session, result)
    stacks_followed(ledger, hand, rows[0].session, events, result)
    if not closed:
        closed_void(ledger, hand, rows[0].session, events, result)
    downstream = (void_downstream(ledger, hand, rows[0].session, events, result)
                  if look_later else [])
    try:
        before = replay_events(events)
    except IllegalAction:  # a stream that does not replay: the books counted none of it
        before = None
    new = _signed(hand, events, new, keys, sign)
    return VoidChecked(hand, new, rows[-1].seq, Voided(result, downstream, before),
                       rows[0].session, events)


def _past_the_break(events: list[Any]) -> set[int]:
    """The seqs of a hand stream without corrections from the first event the rules refuse
    on (a stream that does not replay: a void drops what cannot be played); empty when it
    replays or when it has corrections (their seqs name originals through the corrections)."""
    from replay.fold import fold

    if any(e.type in ("correction", "hand_voided") for e in events):
        return set()
    try:
        fold(events)
    except IllegalAction as exc:
        if exc.seq is not None and exc.seq > 1:
            return set(range(exc.seq, len(events) + 1))
    return set()


def _past_the_dropped_carry(events: list[Any], drop: set[int]) -> set[int]:
    """The seqs in force of a hand stream from the first event the rules refuse on once the
    seqs ``drop`` are gone, a void's ``carry_over`` in with them: a pot-limit raise the
    carried chips allowed is above the maximum without them. A void returns every
    contribution, so it drops what cannot be played without the carry, as it drops the rest
    of a stream that does not replay (:func:`_past_the_break`; RULES.md §7.1); empty when the
    rest replays."""
    from replay.amendments import numbered_events
    from replay.fold import fold

    kept = [n for n in numbered_events(events)[0] if n.inserted or n.seq not in drop]
    try:
        fold([n.event for n in kept])
    except IllegalAction as exc:
        if exc.seq is not None and exc.seq > 1:
            return {n.seq for n in kept[exc.seq - 1:] if not n.inserted}
    return set()


def _signed(hand: str, stored: Sequence[Any], events: list[Any], keys: KeyStore | None,
            name: str | None) -> list[Any]:
    """``events``, to be appended after the hand's ``stored`` events, with every correction
    and void signed by the key ``name`` (when given), each signature binding the hand as it
    will stand before it: ``stored`` and the events of ``events`` before it, signed
    (:mod:`ledger.store.signing`)."""
    if name is None or keys is None:
        return events
    out: list[Any] = []
    for e in events:
        before = [*stored, *out]
        out.append(signing.sign(hand, e, keys, name, before)
                   if isinstance(e, signing.SIGNABLE) else e)
    return out


@_about_the_hand
def undo(ledger: Any, hand: str, *, by: str, reason: str | None = None,
         keys: KeyStore | None = None, sign: str | None = None,
         closed: bool = False) -> Corrected:
    """Take back exactly the last thing appended to the hand, with an appended correction
    (history stays): a live ``act`` (the correction deletes its event; the hand must then
    still replay legally and stay whole, as :func:`correct` checks), or a correction or a void
    (the correction takes it back, :func:`replay.amendments.split_stream`: a void goes with the
    correction that dropped the hand's end for it, and the hand reads as before the void).
    What was appended is the hand's rows written together (one ``recorded_at``); undo after
    undo walks back (:func:`last_write`): an undo and what it took back are passed over.
    The undo is signed with the key ``sign`` of ``keys`` when given, binding the hand as it
    stood, as :func:`correct` signs (:mod:`ledger.store.signing`).

    Raises:
        ChainBroken, LedgerCorrupt: the ledger file fails the proof made before it is read
            (:func:`ledger.store.proven.prove_before_writing`); nothing written.
        LedgerError: ``closed`` given for a hand of a session that is open
            (:func:`closed_flag_on_hands`); nothing written.
        NotFound: no such hand, or no private key ``sign``; IllegalAction: the last thing
            appended is the hand itself
            (``hand start`` or an import: void or correct it), mixes original events and
            amendments, or leaves a hand the rules refuse or that is no longer whole, or
            a clean hand of a closed session paid wrong, or (a void or correction taken
            back) moves a player's net in a closed session (unless ``closed``, as
            :func:`correct` and :func:`void`); a void taken back from a hand whose player
            bought in or cashed out since (:func:`replay.correction_checks.no_entries_since`)
            or sits in another hand in play
            (:func:`replay.correction_checks.no_other_hand_in_play`), or that a later hand
            started on the chips the void gave back (:func:`replay.later_hands.reopened_followed`),
            or whose player's buy-ins before it were all retracted since
            (:func:`replay.correction_checks.no_buy_in_retracted_since`), or whose void
            dropped chips carried in from a hand voided with it
            (:func:`replay.correction_checks.carried_in_dropped`).
    """
    rows = ledger.read(hand)
    last = last_write(rows)
    try:
        _undoable(rows, last)
    except IllegalAction as exc:
        raise _after_an_undo(hand, rows, last, exc) from None
    amended = {r.type in AMENDMENT_TYPES for r in last}
    if amended == {False}:
        carried_undo_refused(ledger, hand, rows, last)
        decimals = stream_decimals([r.event for r in rows])
        words = ", ".join(f"seq {r.seq} ({brief(r.event, decimals)})" for r in last)
        text = reason or f"undo of {words}"
        done = correct(ledger, hand, [ChangeSpec("delete", r.seq) for r in last], reason=text,
                       by=by, keys=keys, sign=sign, closed=closed)
        return Corrected(done.seq, done.before, done.after, done.downstream, words,
                         done.waits, done.start)
    void = last[-1].event if last[-1].type == "hand_voided" else None
    if void is not None:
        _void_undoable(ledger, hand, rows, last, void)
    words = (f"the void at seq {last[-1].seq} (by {void.by}: {void.reason})" if void
             else ", ".join(_amendment_words(r, rows) for r in last))
    correction = ev.Correction(changes=[ev.Change(op="delete", seq=r.seq) for r in last],
                               positions=[r.position for r in last],
                               reason=reason or f"undo of {words}", by=by)
    events = [r.event for r in rows]
    try:
        after = replay_events([*events, correction])
    except IllegalAction as exc:  # its amounts as the hand's actions write them
        said = reason_as_typed(exc, stream_decimals(events))
        raise IllegalAction(f"cannot undo {words}: the hand without it is not legal: "
                            f"event {exc.seq}: {said}", hand=hand) from None
    try:
        if after.result.status != "voided":  # an undo taken back voids the hand again
            same_hand(events, after)
        if after.result.status == "open" and rows[0].session is not None:
            no_entries_since(ledger, rows[0].session, after, last[0].position)
        if after.result.status == "open":
            no_other_hand_in_play(ledger, hand, rows[0].session, after)
        if void is not None:
            reopened_followed(ledger, hand, rows[0].session, after, last[-1].position)
        if void is not None and rows[0].session is not None:
            no_buy_in_retracted_since(ledger, rows[0].session, hand, last[0].position,
                                      after)
    except IllegalAction as exc:
        raise IllegalAction(f"cannot undo {words}: {exc.reason}", hand=hand) from None
    if not closed:
        closed_void(ledger, hand, rows[0].session, events, after,
                     doing=f"undoing {words} of hand {hand}")
    [correction] = _signed(hand, events, [correction], keys, sign)
    done = _append(ledger, hand, rows, correction, words, closed=closed)
    return _own_start_warned(ledger, hand, rows[0].session, done) if void else done


def _void_undoable(ledger: Any, hand: str, rows: Sequence[Any], last: Sequence[Any],
                   void: Any) -> None:
    """Refuse the undo of ``void`` (``last``, the hand's last write) when it would take back
    chips carried in (:func:`carried_in_dropped`) or out (:func:`carried_taken`), or count
    the hand twice beside a hand that records it again (:func:`not_counted_twice`).

    Raises:
        IllegalAction: ``cannot undo the void at seq N (by WHO: REASON): …``.
    """
    try:
        carried_in_dropped(rows, last)
    except IllegalAction as exc:
        raise IllegalAction(f"cannot undo the void at seq {last[-1].seq} (by {void.by}: "
                            f"{void.reason}): {exc.reason}", hand=hand) from None
    carried_taken(ledger, hand, "undoing the void puts the hand back in play with them")
    try:
        not_counted_twice(ledger, hand, rows[0].event)
    except IllegalAction as exc:
        raise IllegalAction(f"cannot undo the void at seq {last[-1].seq} (by {void.by}: "
                            f"{void.reason}): {exc.reason}", hand=hand) from None


def _own_start_warned(ledger: Any, hand: str, session: str | None, done: Corrected
                      ) -> Corrected:
    """``done`` (the undo of ``hand``'s void) with the players whose start of the hand the
    books do not follow, back in them, warned of first
    (:func:`replay.whatif.start_unfollowed`: ``void a1 a2``, ``undo a2``)."""
    if session is None or done.before is None:
        return done
    from dataclasses import replace

    from replay.whatif import start_unfollowed

    own = start_unfollowed(ledger, hand, session, done.before, done.after)
    return replace(done, downstream=own + done.downstream) if own else done


def _undoable(rows: Sequence[Any], last: Sequence[Any]) -> None:
    """Refuse the undo of ``last``, the hand's last write still to undo (:func:`last_write`),
    when it is the hand itself (its start or import), holds the ``end`` (an ended hand is
    not opened again) or mixes original events and amendments.

    Raises:
        IllegalAction: naming its seqs and what to do instead.
    """
    seqs = f"seq {last[0].seq}" + (f"-{last[-1].seq}" if len(last) > 1 else "")
    if last[0].seq == 1:
        raise IllegalAction(f"nothing to undo: the last thing appended to the hand and not "
                            f"taken back is the hand itself ({seqs}, its start or import): "
                            "void it or correct it")
    amended = {r.type in AMENDMENT_TYPES for r in last}
    if amended == {False} and any(r.type == "hand_ended" for r in last):
        decimals = stream_decimals([r.event for r in rows])
        words = ", ".join(f"seq {r.seq} ({brief(r.event, decimals)})" for r in last)
        raise IllegalAction(f"cannot undo {words}: it ends the hand, and an ended hand is "
                            "not opened again; change what it paid with `handledger "
                            "correct` (--insert-after SEQ before the end, --replace SEQ) "
                            "or void it")
    if amended == {True, False}:
        raise IllegalAction(f"cannot undo {seqs}: it mixes original events and corrections "
                            "(change them with `handledger correct`)")


def _after_an_undo(hand: str, rows: Sequence[Any], last: Sequence[Any], exc: IllegalAction
                   ) -> IllegalAction:
    """The refusal ``exc`` of the write ``last`` that undo after undo walked back to
    (:func:`last_write`), led by what was appended last when that is an undo, which is not
    undone itself (README "undo"): the undo and what it took back, and how to record that
    again (``correct``, ``void`` or ``act``). ``exc`` as it is when the last write is
    ``last`` itself."""
    top = rows[-1]
    if last[-1].seq == top.seq or top.type != "correction":
        return IllegalAction(exc.reason, hand=hand)
    taken = {c.seq for c in top.event.changes}
    back = [r for r in rows if r.seq in taken]
    if any(r.type == "hand_voided" for r in back):
        void = next(r for r in back if r.type == "hand_voided")
        what, again = (f"the void at seq {void.seq} (by {void.event.by}: {void.event.reason})",
                       "`handledger void`")
    elif back and all(r.type == "correction" for r in back):
        what, again = ", ".join(_amendment_words(r, rows) for r in back), "`handledger correct`"
    else:
        decimals = stream_decimals([r.event for r in rows])
        what = ", ".join(f"seq {r.seq} ({brief(r.event, decimals)})" for r in back)
        again = "`handledger act`"
    return IllegalAction(
        f"cannot undo seq {top.seq}, the last thing appended: it is the undo of {what}, and "
        f"an undo is not undone (record that again with {again}); walking back past it, as "
        f"undo after undo does: {exc.reason}", hand=hand)


def last_write(rows: Sequence[Any]) -> list[Any]:
    """The hand's last write still to undo: its rows written together (one ``recorded_at``;
    ``rows`` the stream's in seq order; a void an import recorded after the hand's other rows
    a write of its own, :func:`replay.amendment_kinds.undo_writes`), the latest first,
    passing over each undo and the write it took back. An undo is a write of one correction
    whose changes all delete and name exactly the seqs of one earlier write (``handledger
    undo``, or a ``correct --delete`` of everything one ``act`` appended)."""
    ordered = undo_writes(rows)
    index = {frozenset(r.seq for r in w): k for k, w in enumerate(ordered)}
    passed: set[int] = set()
    for k in range(len(ordered) - 1, -1, -1):
        if k in passed:
            continue
        write = ordered[k]
        seqs = (taken_back(write[0].event) if len(write) == 1 and write[0].type == "correction"
                else None)
        took = index.get(seqs) if seqs is not None else None
        if took is None or took >= k:
            return write
        passed.add(took)
    return ordered[0]


def _amendment_words(row: Any, rows: Sequence[Any]) -> str:
    """``the undo at seq 27`` (a correction that only takes back corrections or voids) /
    ``the correction at seq 25 (by floor: misdeal)``."""
    e = row.event
    if all(rows[c.seq - 1].type in AMENDMENT_TYPES for c in e.changes if c.seq < row.seq):
        return f"the undo at seq {row.seq}"
    return f"the correction at seq {row.seq} (by {e.by}: {e.reason})"
