"""Correcting and voiding a recorded hand without rewriting history, and telling its history.

A correction or a void is a new event appended to the hand's stream; the original events stay
and replay, the audit and the exports read the hand through
:func:`replay.fold.effective_events`. A correction is refused (nothing is written) when the
corrected hand does not replay legally.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from engine.errors import IllegalAction
from engine.notation import format_amount
from ledger.model import events as ev
from ledger.model.errors import locating
from ledger.store import signing
from ledger.store.keys import KeyStore
from ledger.store.streams import hands_seating, platform_names
from replay.fold import (
    HandReplay,
    effective_events,
    fold_stream,
    in_force_before,
    replay_events,
    split_stream,
)
from replay.typed import reason_as_typed, stream_decimals
from replay.whatif import (
    ChangeSpec,
    Downstream,
    build_correction,
    check_replays,
    compare,
    paid_net,
    same_hand,
)

if TYPE_CHECKING:
    from replay.compare import Discrepancy

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

    @property
    def moved(self) -> dict[str, dict[str, int]] | None:
        """What moved, in chips: ``{"net": {player: change}, "paid": {player: change}}`` of
        the rules' net and of the net as the table paid it (:func:`replay.whatif.paid_net`),
        players whose number did not move left out, and so are those whose rules' net a
        showdown that cannot be checked leaves unknown (:attr:`unknown`); None when the hand
        did not replay before."""
        if self.before is None:
            return None
        from replay.unknown_rules import rules_nets

        b, a = paid_net(self.before), paid_net(self.after)
        return {"net": {p: n for p, n in rules_nets(self.before, self.after)[2].items()
                        if n},
                "paid": {p: a[p] - b[p] for p in a if a[p] != b[p]}}

    @property
    def unknown(self) -> tuple[Any, Any, bool]:
        """``(before, after, same)``: :class:`replay.unknown_rules.UnknownResult` of the hand
        before (None when it did not replay) and after when its showdown cannot be checked,
        else None; ``same``: the rules' result is the same before and after, known or not
        (:func:`replay.unknown_rules.same_rules`)."""
        from replay.unknown_rules import same_rules, unknown_result

        if self.before is None:
            return None, unknown_result(self.after), False
        return (unknown_result(self.before), unknown_result(self.after),
                same_rules(self.before, self.after))



def _about_the_hand(command: Callable[..., T]) -> Callable[..., T]:
    """``command(ledger, hand, ...)`` whose refusals name ``hand`` when they do not yet."""

    @functools.wraps(command)
    def named(ledger: Any, hand: str, *args: Any, **kwargs: Any) -> T:
        with locating(hand=hand):
            return command(ledger, hand, *args, **kwargs)

    return named


@_about_the_hand
def correct(ledger: Any, hand: str, specs: Sequence[ChangeSpec], *, reason: str,
            by: str, keys: KeyStore | None = None, sign: str | None = None,
            closed: bool = False) -> Corrected:
    """Append a correction of ``hand`` made of ``specs`` (:mod:`replay.whatif`), signed with
    the key ``sign`` of ``keys`` when given (:mod:`ledger.store.signing`). ``closed``: go in
    though the hand's session is closed and the hand, paid by the rules until now, would
    then be paid differently, or a player's net or the hand's rake would move
    (:func:`_closed_moves`). An action may name a player known by a platform id as the reads
    show him (:func:`replay.whatif.parse_action`).

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: a change that is
            not legal, a corrected hand the engine rejects, one that changes nothing (the
            hand's events in force the same with it), one that changes what the hand
            carries to the session's next hand once a later hand started
            (:func:`replay.carry.carry_kept`), one of a hand in play whose payouts take
            chips its pot carries that takes none back
            (:func:`replay.payout_rules.payouts_of_carried_kept`), or, without ``closed``, a
            clean hand of a closed session made paid wrong or one whose nets or rake move
            (nothing written).
    """
    rows = ledger.read(hand)
    events = [r.event for r in rows]
    positions = {r.seq: r.position for r in rows}
    correction = build_correction(events, specs, reason=reason, by=by, positions=positions,
                                  names=platform_names(ledger))
    _changes_something(hand, events, correction)
    [correction] = _signed(hand, events, [correction], keys, sign)
    return _append(ledger, hand, rows, correction, closed=closed)


def _changes_something(hand: str, events: Sequence[Any], correction: ev.Correction) -> None:
    """Refuse ``correction`` when the hand's events in force are the same with it as without
    (the same correction given twice, an action replaced by itself): it would be a row of
    history that changes nothing.

    Raises:
        IllegalAction: "changes nothing", naming the hand.
    """
    try:
        before, _ = effective_events(events)
    except IllegalAction:  # a broken stream: this correction repairs it
        return
    if effective_events([*events, correction])[0] == before:
        raise IllegalAction(
            "changes nothing: the hand's events in force would be the same with this "
            f"correction (`handledger history {hand}` lists its corrections); nothing written",
            hand=hand)


def _append(ledger: Any, hand: str, rows: Sequence[Any], correction: ev.Correction,
            took_back: str | None = None, *, closed: bool = False) -> Corrected:
    """Append ``correction`` (already checked) after ``rows``; what it moved. Refused, unless
    ``closed``, when the hand's session is closed and it moves a player's net or the hand's
    rake (:func:`_closed_moves`), or makes a clean hand paid wrong (:func:`_closed_books`)."""
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

        carry_kept(ledger, hand, rows[0].session, before, after, doing)
        payouts_of_carried_kept(hand, events, correction, doing)
    if not closed and before is not None:
        if not before.discrepancies and after.discrepancies:
            _closed_books(ledger, hand, rows[0].session, after)
        _closed_moves(ledger, hand, rows[0].session, before, after, doing)
    downstream = (compare(ledger, hand, rows, correction).downstream
                  if rows[0].session and before is not None else [])
    ledger.append(hand, [correction], hand_id=hand, expected_seq=rows[-1].seq)
    return Corrected(rows[-1].seq + 1, before, after, downstream, took_back)


@_about_the_hand
def void(ledger: Any, hand: str, *, reason: str, by: str, keys: KeyStore | None = None,
         sign: str | None = None, closed: bool = False) -> HandReplay:
    """Void ``hand``: every contribution goes back; its events stay. For an ended hand the
    void comes with a correction that deletes its ``hand_ended`` (same reason and author),
    since the engine takes no ``hand_voided`` after the end. Both are signed with the key
    ``sign`` of ``keys`` when given. Returns the voided hand. ``closed``: go in though the
    hand's session is closed and the void moves a player's net (chips), as for
    :func:`correct`.

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: the hand is already
            voided, or a later hand took the chips it carried to the next hand
            (:func:`_carried_taken`), or it would pass chips carried into it on while a later
            hand of its session has started (:func:`_passed_on_reach`), or it is in a closed
            session and the void would move a player's net, without ``closed`` (nothing
            written; :func:`_closed_void`).
    """
    rows = ledger.read(hand)
    events = [r.event for r in rows]
    if split_stream(events)[2]:
        raise IllegalAction("the hand is already voided", hand=hand)
    _carried_taken(ledger, hand, "a void returns every contribution")
    drop = {r.seq for r in rows if r.type == "hand_ended"} | _past_the_break(events)
    new: list[Any] = []
    if drop:
        specs = [ChangeSpec("delete", seq) for seq in sorted(drop)]
        new.append(build_correction(events, specs, reason=f"void: {reason}", by=by,
                                    positions={r.seq: r.position for r in rows},
                                    keep_end=False))
    new.append(ev.HandVoided(reason=reason, by=by))
    result = check_replays([*events, *new])
    _passed_on_reach(ledger, hand, rows[0].session, result)
    if not closed:
        _closed_void(ledger, hand, rows[0].session, events, result)
    new = _signed(hand, events, new, keys, sign)
    ledger.append(hand, new, hand_id=hand, expected_seq=rows[-1].seq)
    return result


def _carried_taken(ledger: Any, hand: str, doing: str) -> None:
    """Refuse a void of ``hand`` (or the undo of its void) once a later hand took the chips it
    carried out or passed on (RULES.md §3.8, §7.1): ``doing`` would give them back to the
    players while that hand holds them.

    Raises:
        IllegalAction: naming the hand that took them.
    """
    from replay.carry import taken_by

    later = taken_by(ledger, hand)
    if later is not None:
        raise IllegalAction(
            f"hand {later} took the chips this hand carried to the session's next hand "
            f"(RULES.md §3.8, §7.1), and {doing}: the chips would be counted twice; nothing "
            "written", hand=hand)


def _passed_on_reach(ledger: Any, hand: str, session: str | None, voided: HandReplay) -> None:
    """Refuse the void of ``hand`` (``voided``: the hand as the void leaves it) when it would
    pass chips carried into it on to the session's next hand (RULES.md §7.1) and a later hand
    of the session has started already: that hand took nothing from it as it started, and
    what a hand brings in is recorded only then, so the chips would reach no hand.

    Raises:
        IllegalAction: naming the chips and the later hand (nothing written).
    """
    from replay.carry import later_hand, leaves

    chips = leaves(voided)
    if not chips:
        return
    later = later_hand(ledger, hand, session)
    if later is not None:
        raise IllegalAction(
            f"voided, the hand would pass the {chips} chip(s) carried into it on to the "
            f"session's next hand (RULES.md §7.1), but hand {later} started after it without "
            "them and takes nothing more: the chips would be lost; nothing written",
            hand=hand)


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


def history(ledger: Any, hand: str, keys: KeyStore | None = None) -> dict[str, Any]:
    """The hand's original events (seq, position, recorded_at, type, event) and every
    correction and void (who, why, for a correction each change with what it replaced, and
    a signed one's ``signature``: status good/bad/unknown, signer, note, checked against
    ``keys`` and the hand's rows before it, ``binds`` "hand" or, a signature of the older
    form, "event", and ``covers``, that in words: :mod:`ledger.store.signing`), as
    ``{"hand", "events", "amendments"}``. What a change replaced, deleted or
    was inserted after (``was``, :func:`brief` words) is the event in force at its seq just
    before that correction, with ``was_set_by`` the seq of the correction that put it there
    (None: as first recorded; ``was`` None with ``was_set_by``: deleted by it), so that a
    correction of a correction names the value it changed
    (:func:`replay.fold.in_force_before`); a change
    taking back a correction or void names that amendment. An unsigned correction that takes
    back signed amendments (an ``undo`` without ``--sign``) has ``unsigned``, a list of
    ``{"seq", "type", "signer"}`` of those it takes back.

    Raises:
        NotFound: no such hand; LedgerError: a damaged key file.
    """
    rows = ledger.read(hand)
    by_seq = {r.seq: r for r in rows}
    events = [r.event for r in rows]
    decimals = stream_decimals(events)
    chip = _session_chip(ledger, events[0]) if keys is not None and events else None
    originals, amendments = [], []
    for index, r in enumerate(rows):
        e = r.event
        item: dict[str, Any] = {"seq": r.seq, "position": r.position,
                                "recorded_at": r.recorded_at.isoformat(), "type": r.type}
        if r.type in ("correction", "hand_voided"):
            item |= {"by": e.by, "reason": e.reason}
            checked = signing.check(hand, e, keys, events[:index], chip) \
                if keys is not None else None
            if checked is not None:
                item["signature"] = {"status": checked.status, "signer": checked.signer,
                                     "note": checked.note,
                                     "binds": "hand" if signing.binds_hand(e) else "event",
                                     "covers": signing.binding(e, index)}
            if (taken := _signed_taken_back(e, rows)) and e.signature is None:
                item["unsigned"] = taken
            if r.type == "correction":
                before = in_force_before(events, r.seq)
                item |= {"changes": [
                    c.model_dump(mode="json") | _was(c, by_seq, before, decimals)
                    for c in e.changes], "positions": list(e.positions)}
            amendments.append(item)
        else:
            item["event"] = e.model_dump(mode="json", exclude={"type", "schema_version"})
            originals.append(item)
    return {"hand": hand, "events": originals, "amendments": amendments}


def _signed_taken_back(event: Any, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The signed corrections and voids the correction ``event`` deletes (takes back: an
    ``undo``), each as ``{"seq", "type", "signer"}``; empty for a void or any other
    correction."""
    if event.type != "correction":
        return []
    out = []
    for c in event.changes:
        row = rows[c.seq - 1] if c.op == "delete" and 1 <= c.seq <= len(rows) else None
        if row is not None and isinstance(row.event, signing.SIGNABLE) \
                and row.event.signature is not None:
            out.append({"seq": row.seq, "type": row.type,
                        "signer": row.event.signature.signer})
    return out


def _session_chip(ledger: Any, started: Any) -> ev.Unit | None:
    """The chip of the session of a stored hand of plain chips whose first row is
    ``started``, a hand played live there (:func:`replay.ingest.export.session_chip`): a
    signature made where its export was imported binds the hand in that chip
    (:func:`ledger.store.signing.same_hand_units`); None otherwise."""
    if started.type != "hand_started" or started.session is None or (
            started.unit.currency is not None):
        return None
    from replay.ingest.export import session_chip

    return session_chip(ledger, started.session)


def _was(change: ev.Change, by_seq: dict[int, Any], before: dict[int, Any],
         decimals: int = 0) -> dict[str, Any]:
    """``{"was", "was_set_by"}`` of a correction's ``change`` (see :func:`history`), its
    amounts as the hand's actions write them (``decimals``, :func:`brief`)."""
    if change.seq in before:
        event, setter = before[change.seq]
        return {"was": brief(event, decimals) if event is not None else None,
                "was_set_by": setter}
    row = by_seq.get(change.seq)  # an amendment taken back (or a stream that did not apply)
    return {"was": brief(row.event, decimals) if row is not None else None, "was_set_by": None}


def change_brief(data: dict[str, Any], decimals: int = 0) -> str:
    """:func:`brief` of an event given as its JSON (a change's ``event`` in :func:`history`).

    Raises:
        MalformedEvent: ``data`` is no event.
    """
    return brief(ev.parse_event(data), decimals)


#: The fields of a hand's events that count its chips (a bet's ``to``, a blind's or a
#: payout's ``amount``, a seat change's ``stack``), written by :func:`brief` in the hand's unit.
_CHIP_FIELDS = frozenset({"to", "amount", "stack"})


def brief(event: Any, decimals: int = 0) -> str:
    """``recorded_payout Bob 400`` — an event in a few words; its chips as the actions of a
    hand of ``decimals`` write them (``bet_raise Ann 5.00`` for 500 chips of a hand kept in
    cents, as ``show`` writes ``Ann cbr 5.00``: replay/typed.py, FORMATS.md §1)."""
    data = event.model_dump(mode="json", exclude={"type", "schema_version"},
                            exclude_defaults=True)
    if event.type == "hand_started":
        return f"hand_started {event.hand}"
    if event.type in _AMENDMENTS:
        return f"{event.type} by {event.by}: {event.reason}"
    return " ".join([event.type, *(
        format_amount(v, decimals) if decimals and k in _CHIP_FIELDS and isinstance(v, int)
        else _word(v) for k, v in data.items())])


def _word(value: Any) -> str:
    """One field for :func:`brief`: cards run together (``Jd4cQc``), face-up flags in words."""
    if not isinstance(value, list):
        return str(value)
    if value and all(isinstance(v, bool) for v in value):
        if all(value) or not any(value):
            return "face up" if value[0] else "face down"
        return "faces " + "".join("u" if v else "d" for v in value)
    return "".join(map(str, value))


@_about_the_hand
def undo(ledger: Any, hand: str, *, by: str, reason: str | None = None,
         keys: KeyStore | None = None, sign: str | None = None,
         closed: bool = False) -> Corrected:
    """Take back exactly the last thing appended to the hand, with an appended correction
    (history stays): a live ``act`` (the correction deletes its event; the hand must then
    still replay legally and stay whole, as :func:`correct` checks), or a correction or a void
    (the correction takes it back, :func:`replay.fold.split_stream`: a void goes with the
    correction that dropped the hand's end for it, and the hand reads as before the void).
    What was appended is the hand's rows written together (one ``recorded_at``); undo after
    undo walks back (:func:`last_write`): an undo and what it took back are passed over.
    The undo is signed with the key ``sign`` of ``keys`` when given, binding the hand as it
    stood, as :func:`correct` signs (:mod:`ledger.store.signing`).

    Raises:
        NotFound: no such hand, or no private key ``sign``; IllegalAction: the last thing
            appended is the hand itself
            (``hand start`` or an import: void or correct it), mixes original events and
            amendments, or leaves a hand the rules refuse or that is no longer whole, or
            a clean hand of a closed session paid wrong, or (a void or correction taken
            back) moves a player's net in a closed session (unless ``closed``, as
            :func:`correct` and :func:`void`); a void taken back from a hand whose player
            bought in or cashed out since (:func:`_no_entries_since`) or sits in another
            hand in play (:func:`_no_other_hand_in_play`).
    """
    rows = ledger.read(hand)
    last = last_write(rows)
    seqs = f"seq {last[0].seq}" + (f"-{last[-1].seq}" if len(last) > 1 else "")
    if last[0].seq == 1:
        raise IllegalAction(f"nothing to undo: the last thing appended to the hand and not "
                            f"taken back is the hand itself ({seqs}, its start or import): "
                            "void it or correct it", hand=hand)
    amended = {r.type in _AMENDMENTS for r in last}
    if amended == {False}:
        decimals = stream_decimals([r.event for r in rows])
        words = ", ".join(f"seq {r.seq} ({brief(r.event, decimals)})" for r in last)
        if any(r.type == "hand_ended" for r in last):
            raise IllegalAction(f"cannot undo {words}: it ends the hand, and an ended hand is "
                                "not opened again; change what it paid with `handledger "
                                "correct` (--insert-after SEQ before the end, --replace SEQ) "
                                "or void it", hand=hand)
        text = reason or f"undo of {words}"
        done = correct(ledger, hand, [ChangeSpec("delete", r.seq) for r in last], reason=text,
                       by=by, keys=keys, sign=sign, closed=closed)
        return Corrected(done.seq, done.before, done.after, done.downstream, words)
    if amended != {True}:
        raise IllegalAction(f"cannot undo {seqs}: it mixes original events and corrections "
                            "(change them with `handledger correct`)", hand=hand)
    void = last[-1].event if last[-1].type == "hand_voided" else None
    if void is not None:
        _carried_taken(ledger, hand, "undoing the void puts the hand back in play with them")
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
            _no_entries_since(ledger, rows[0].session, after, last[0].position)
        if after.result.status == "open":
            _no_other_hand_in_play(ledger, hand, rows[0].session, after)
    except IllegalAction as exc:
        raise IllegalAction(f"cannot undo {words}: {exc.reason}", hand=hand) from None
    if not closed:
        _closed_void(ledger, hand, rows[0].session, events, after,
                     doing=f"undoing {words} of hand {hand}")
    [correction] = _signed(hand, events, [correction], keys, sign)
    return _append(ledger, hand, rows, correction, words, closed=closed)


_AMENDMENTS = ("correction", "hand_voided")


def last_write(rows: Sequence[Any]) -> list[Any]:
    """The hand's last write still to undo: its rows written together (one ``recorded_at``;
    ``rows`` the stream's in seq order), the latest first, passing over each undo and the
    write it took back. An undo is a write of one correction whose changes all delete and
    name exactly the seqs of one earlier write (``handledger undo``, or a ``correct --delete``
    of everything one ``act`` appended)."""
    writes: dict[Any, list[Any]] = {}
    for r in rows:
        writes.setdefault(r.recorded_at, []).append(r)
    ordered = list(writes.values())
    index = {frozenset(r.seq for r in w): k for k, w in enumerate(ordered)}
    passed: set[int] = set()
    for k in range(len(ordered) - 1, -1, -1):
        if k in passed:
            continue
        write = ordered[k]
        changes = write[0].event.changes if len(write) == 1 and write[0].type == "correction" \
            else []
        took = index.get(frozenset(c.seq for c in changes)) if changes and all(
            c.op == "delete" for c in changes) else None
        if took is None or took >= k:
            return write
        passed.add(took)
    return ordered[0]


def _no_entries_since(ledger: Any, session: str, hand: HandReplay, position: int) -> None:
    """Refuse to put ``hand`` back in play when a player seated in it bought in or cashed
    out of ``session`` after ledger ``position`` (while it was voided): chips come on or off
    the table only between hands (RULES.md §1.1).

    Raises:
        IllegalAction: naming the player and the entry.
    """
    from ledger.audit.load import session_rows

    seated = set(hand.result.players)
    for row in session_rows(ledger, sessions=[session], types=["buy_in", "cash_out"],
                            after=position):
        if row.event.player in seated:
            what = "cashed out" if row.event.type == "cash_out" else "bought in"
            raise IllegalAction(f"{row.event.player} {what} of session {session} since, and "
                                "the hand would be in play again (chips come on or off the "
                                "table only between hands, RULES.md §1.1)")


def _no_other_hand_in_play(ledger: Any, hand: str, session: str | None,
                           after: HandReplay) -> None:
    """Refuse to put ``hand`` back in play while another hand of ``session`` (None: of no
    session) that seats one of its players is in play: a player's chips are in one hand at a
    time (table stakes, RULES.md §1.1).

    Raises:
        IllegalAction: naming the player and the other hand.
    """
    seated = after.result.players
    for other, voided, ended in hands_seating(ledger, session, seated):
        if other == hand or (ended and not voided):
            continue
        events = [r.event for r in ledger.read(other)]
        try:
            status = fold_stream(events)[0].status
        except IllegalAction:
            continue  # a hand the rules refuse is in play for nobody
        if status != "open":
            continue
        there = {s.player for s in events[0].seats}
        player = next(p for p in seated if p in there)
        raise IllegalAction(
            f"{player} is seated in hand {other}, still in play, and the hand would be in play "
            f"again beside it (a player's chips are in one hand at a time, RULES.md §1.1): end "
            f"or void {other} first")


def _closed_books(ledger: Any, hand: str, session: str | None, after: HandReplay) -> None:
    """Refuse a change that leaves ``hand``, clean until now, paid differently from the rules
    (``after``) when its session is closed: its books were audited and settled up at the
    close (README: sessions and the books), so `--closed` must say it is meant.

    Raises:
        IllegalAction: naming the hand, the session and the first new discrepancy.
    """
    from replay.sessions import session_state

    if session is None or not session_state(ledger, session).closed:
        return
    first = after.discrepancies[0]
    raise IllegalAction(
        f"session {session} is closed and this leaves hand {hand}, paid by the rules until "
        f"now, paid differently ({_how(first)}): nothing written; --closed records it anyway",
        hand=hand)


def _how(found: Discrepancy) -> str:
    """How a finding of a hand differs, in a refusal's words: ``Ann paid 0, the rules give
    300`` for a player paid other than the rules give, else its own sentence without the
    hand (a finding of the whole table, player ``*``, or one of no single difference in
    chips: ``no legal split of the pots pays what the table paid (…)``)."""
    if found.player != "*" and found.diff:
        return f"{found.player} paid {found.recorded}, the rules give {found.recomputed}"
    return found.sentence().removeprefix(f"hand {found.hand}: ")


def taken_as_rake(replay: HandReplay) -> int:
    """The chips the books count as ``replay``'s rake (its ``rake`` finding, and the payouts
    wrong beside it: :func:`ledger.audit.rake_count.counted_rake`, as
    :func:`ledger.audit.reports.rake_taken` sums them)."""
    from ledger.audit.rake_count import counted_rake

    return counted_rake(replay.discrepancies)


def _closed_moves(ledger: Any, hand: str, session: str | None, before: HandReplay,
                  after: HandReplay, doing: str) -> None:
    """Refuse the change ``doing`` (``"correcting hand h2"``) of ``hand`` from ``before`` to
    ``after`` when its session is closed and it moves a player's net (the books' net,
    :func:`replay.whatif.paid_net`) or the rake the books count (:func:`taken_as_rake`, the
    house's): the session's books were settled up at the close (README: sessions and the
    books), so `--closed` must say it is meant, as for a void (:func:`_closed_void`).

    Raises:
        IllegalAction: naming the hand, the session, each player's net change and the
            rake's.
    """
    was, now = paid_net(before), paid_net(after)
    moved = {p: now.get(p, 0) - n for p, n in was.items() if now.get(p, 0) != n}
    rake = (taken_as_rake(before), taken_as_rake(after))
    if not moved and rake[0] == rake[1]:
        return
    from replay.sessions import session_state

    if session is None or not session_state(ledger, session).closed:
        return
    what = []
    if moved:
        what.append("its players' nets (" + ", ".join(f"{p} {n:+d}" for p, n in moved.items())
                    + ")")
    if rake[0] != rake[1]:
        what.append(f"its rake ({rake[0]} to {rake[1]} chips)")
    raise IllegalAction(f"session {session} is closed and {doing} moves {' and '.join(what)}: "
                        "nothing written; --closed records it anyway", hand=hand)


def _closed_void(ledger: Any, hand: str, session: str | None, events: list[Any],
                 after: HandReplay, doing: str | None = None) -> None:
    """Refuse the void of ``hand`` (``after``: the voided hand), or the undo ``doing`` of a
    void or correction (``after``: the hand without it), when its session is closed and it
    moves a player's net (the books' net, :func:`replay.whatif.paid_net`): the session's
    books were audited and settled up at the close (README: sessions and the books), so
    `--closed` must say it is meant, as :func:`_closed_books` for a correction. A hand whose
    stream did not replay moved no chips in the books: its void goes in.

    Raises:
        IllegalAction: naming the hand, the session and each player's net change.
    """
    from replay.sessions import session_state

    if session is None or not session_state(ledger, session).closed:
        return
    try:
        before = paid_net(replay_events(events))
    except IllegalAction:
        return
    now = paid_net(after)
    moved = {p: now.get(p, 0) - n for p, n in before.items() if now.get(p, 0) != n}
    if not moved:
        return
    raise IllegalAction(
        f"session {session} is closed and {doing or f'voiding hand {hand}'} moves its "
        "players' nets "
        f"({', '.join(f'{p} {n:+d}' for p, n in moved.items())}): nothing written; --closed "
        "records it anyway", hand=hand)


def _amendment_words(row: Any, rows: Sequence[Any]) -> str:
    """``the undo at seq 27`` (a correction that only takes back corrections or voids) /
    ``the correction at seq 25 (by floor: misdeal)``."""
    e = row.event
    if all(rows[c.seq - 1].type in _AMENDMENTS for c in e.changes if c.seq < row.seq):
        return f"the undo at seq {row.seq}"
    return f"the correction at seq {row.seq} (by {e.by}: {e.reason})"
