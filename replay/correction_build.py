"""A correction of a recorded hand built from the changes asked for: never rewrite history,
append a correction.

A change names an ORIGINAL event of the hand by its sequence number in the hand stream (what
``handledger show`` and ``handledger history`` print) — the same numbering
:func:`replay.amendments.effective_events` uses. Three kinds:

* ``replace SEQ ACTION`` — the event at SEQ becomes ACTION;
* ``insert_after SEQ ACTION`` — ACTION is inserted after the event at SEQ;
* ``delete SEQ`` — the event at SEQ is dropped.

ACTION is read against the state of the (corrected) hand at that point
(:func:`replay.action_text.parse_action` lists its forms). :func:`build_correction` turns
changes into a :class:`ledger.model.events.Correction` and checks that the corrected hand
replays legally and is the same whole hand (:mod:`replay.corrected_hand`).

Raises:
    engine.errors.IllegalAction: an action that is not legal at its point, a seq the hand
        does not have, or a corrected hand the engine rejects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.shell import shell_arg
from replay.action_text import parse_action
from replay.amendments import effective_events, split_stream
from replay.corrected_hand import check_replays, payout_fault, same_hand
from replay.fold import fold
from replay.inserted_rows import original_seqs
from replay.stored_unit import in_stored_unit
from replay.typed import reason_as_typed, stream_decimals

Op = Literal["replace", "insert_after", "delete"]


@dataclass(frozen=True)
class ChangeSpec:
    """One requested change before conversion: op, original seq, action text (None: delete)."""

    op: Op
    seq: int
    text: str | None = None


def _slots(events: Sequence[Any]) -> list[tuple[int, list[Any]]]:
    """Original events as ``(seq, [events])`` slots with the stream's corrections in force
    applied (the same rules as :func:`replay.amendments.effective_events`; voids left out)."""
    originals, corrections, _ = split_stream(events)
    slots: list[tuple[int, list[Any]]] = [(i, [e]) for i, e in originals]
    index = {seq: k for k, (seq, _) in enumerate(slots)}
    for changes in corrections:
        for change in changes:
            _apply(slots, index, change.op, change.seq,
                   ev.parse_event(change.event) if change.event is not None else None)
    return slots


def _apply(slots: list[tuple[int, list[Any]]], index: dict[int, int], op: str, seq: int,
           new: Any) -> None:
    k = index.get(seq)
    if k is None:
        raise IllegalAction(f"seq {seq} is not an original event of the hand")
    s, group = slots[k]
    extra = [new] if new is not None else []
    if op == "replace":
        slots[k] = (s, extra + group[1:])
    elif op == "delete":
        slots[k] = (s, group[1:])
    else:
        slots[k] = (s, group + extra)


def _carry_kept(spec: ChangeSpec, group: Sequence[Any], new: Any, *,
                dropping: bool = False) -> None:
    """Refuse a change that deletes or replaces a ``carry_over`` or makes one: chips carried
    between hands are recorded on both hands as the next one starts (RULES.md §2.2, §3.8, §7.1), and
    the other hand holds them; what the carrying hand paid is corrected instead. ``dropping``:
    a delete goes in (a void's, :func:`build_correction`).

    Raises:
        IllegalAction: naming the change and the hand the chips went to or came from.
    """
    if dropping and spec.op == "delete":
        return
    old = group[0] if group and spec.op != "insert_after" else None
    for e in (old, new):
        if e is not None and e.type == "carry_over":
            way = "to" if e.direction == "out" else "from"
            raise IllegalAction(
                f"{spec.op} {spec.seq}: a carry_over records chips carried {way} hand "
                f"{e.other_hand} (RULES.md §2.2, §3.8, §7.1), written on both hands as the next "
                "one starts; a correction does not change it")


def build_correction(
    events: Sequence[Any],
    specs: Sequence[ChangeSpec],
    *,
    reason: str,
    by: str,
    positions: dict[int, int] | None = None,
    keep_end: bool = True,
    names: Mapping[str, str] | None = None,
    drop_carried: bool = False,
    chip: ev.Unit | None = None,
) -> ev.Correction:
    """A correction of the hand stream ``events`` (originals plus earlier corrections).

    Changes are converted in ascending seq order (ties in the order given), each against the
    state of the hand corrected so far. ``positions`` maps a seq to its ledger position (what
    :attr:`ledger.model.events.Correction.positions` records); ``keep_end``: the corrected hand
    must be the same whole hand (:func:`replay.corrected_hand.same_hand`; a void's correction
    drops the end); ``names``: the platform names an action may name a player by
    (:func:`replay.action_text.parse_action`); ``drop_carried``: a ``carry_over`` may be
    deleted (a void's correction, the chips carried between hands voided in one write:
    :func:`replay.corrections.void_checked`); ``chip``: the unit the hand's JSON-lines export
    writes in place of its stored one (:func:`replay.stored_unit.export_chip`), which a
    replacement ``hand_started`` copied from it is given back
    (:func:`replay.stored_unit.in_stored_unit`). The corrected hand is then replayed:

    Raises:
        IllegalAction: no changes, a row a correction inserted replaced or deleted
            (``23+``, :mod:`replay.inserted_rows`), a seq the hand does not have, an
            insertion after the hand's end, an action not legal at its point, or a corrected
            hand the engine rejects (the reason says which event).
    """
    if not specs:
        raise IllegalAction("no changes given (use --replace, --insert-after or --delete)")
    specs = original_seqs(events, specs)  # 23+ refused, but after 23+ is after 23
    _one_change_a_seq(specs)
    slots = _slots(events)
    in_force = [e for _, group in slots for e in group]
    index = {seq: k for k, (seq, _) in enumerate(slots)}
    seated = [seat.player for seat in events[0].seats] if events[0].type == "hand_started" else []
    changes: list[ev.Change] = []
    made: dict[int, ChangeSpec] = {}  # id of each event put in: its change
    for spec in sorted(specs, key=lambda s: s.seq):
        k = index.get(spec.seq)
        if k is None:
            raise IllegalAction(_not_original(events, spec.seq))
        new = None
        if spec.op == "insert_after" and slots[k][1] and slots[k][1][-1].type == "hand_ended":
            raise IllegalAction(f"insert_after {spec.seq}: seq {spec.seq} is the hand's end; "
                                "nothing comes after it: insert what is missing before it "
                                "(--insert-after an earlier SEQ)")
        if spec.op != "delete":
            if spec.text is None:
                raise IllegalAction(f"{spec.op} {spec.seq} needs an action")
            upto = k if spec.op == "replace" else k + 1
            prefix = [(seq, e) for seq, group in slots[:upto] for e in group]
            if spec.text.strip().startswith("{") or not prefix:
                state = None
            else:
                state = _fold_prefix(prefix, spec.seq, stream_decimals(events))
            if state is None and not spec.text.strip().startswith("{"):
                raise IllegalAction("the hand_started event can only be replaced by a JSON event")
            try:
                new = in_stored_unit(in_force[0] if in_force else None,
                                     parse_action(state, spec.text, names, seated=seated), chip)
                _payout_above_zero(new)
            except IllegalAction as exc:
                said = reason_as_typed(exc, stream_decimals(events))
                raise IllegalAction(f"{spec.op} {spec.seq} {spec.text!r}: {said}") from None
            _same_session(events, spec, new)
            made[id(new)] = spec
        elif slots[k][0] == 1 and spec.op == "delete":
            raise IllegalAction("the hand_started event cannot be deleted (void the hand)")
        _carry_kept(spec, slots[k][1], new, dropping=drop_carried)
        _apply(slots, index, spec.op, spec.seq, new)
        changes.append(ev.Change(
            op=spec.op, seq=spec.seq,
            event=new.model_dump(mode="json") if new is not None else None,
        ))
    pos = positions or {}
    correction = ev.Correction(
        changes=changes,
        positions=sorted({pos[c.seq] for c in changes if c.seq in pos}),
        reason=reason,
        by=by,
    )
    after = check_replays([*events, correction])
    if keep_end:
        _shown_kept(events, in_force, slots, specs, made)
        _forced_bets_fit(events, correction, specs)
        _same_whole_hand(events, after, specs)
        payouts_as_at_the_table(events, correction, specs)
    return correction


def refuse_under_void(hand: str, events: Sequence[Any], correction: ev.Correction) -> None:
    """Refuse ``correction`` of ``hand`` (``events``: its stream) when the hand is voided with
    it and without: a voided hand moves no chip (docs/CORRECTIONS.md "correct" and "void"), so the
    correction, or a what-if of it, would change nothing in the books. A stream that does not
    fold as it stands is left to the correction that repairs it.

    Raises:
        IllegalAction: ``the hand is voided: a correction under a void changes nothing in the
            books; take the void back first (`handledger undo HAND --by …`); nothing
            written``, naming the hand.
    """
    try:
        before, _ = effective_events(events)
    except IllegalAction:  # a broken stream: this correction repairs it
        return
    after, _ = effective_events([*events, correction])
    if before and after and before[-1].type == after[-1].type == "hand_voided":
        raise IllegalAction(
            "the hand is voided: a correction under a void changes nothing in the books; "
            f"take the void back first (`handledger undo {shell_arg(hand)} --by …`); nothing "
            "written",
            hand=hand)


def _shown_kept(events: Sequence[Any], before: Sequence[Any],
                slots: Sequence[tuple[int, list[Any]]], specs: Sequence[ChangeSpec],
                made: Mapping[int, ChangeSpec]) -> None:
    """Refuse a correction that puts in a show or a muck that a live ``act`` refuses: a
    second show of a hand shown, a muck after a show (:func:`replay.show_rules.shown_stays`),
    or that makes one of the hand's events so (a show put in before the player's show);
    ``events``: the hand's stream, ``before``: its events in force without the correction,
    ``slots``: with it, ``made``: each event it puts in (by id) and its change. One that
    deletes or replaces the earlier show goes in; a show or muck the hand had already stays.

    Raises:
        IllegalAction: ``"correction insert_after 16 'Ann sm': Ann has shown AsAh already; a
            shown hand stays shown"``.
    """
    from replay.show_rules import shown_kept

    after = [e for _, group in slots for e in group]
    found = shown_kept(before, after)
    if found is None:
        return
    event, why = found
    spec = made.get(id(event))
    if spec is not None:
        raise IllegalAction(f"correction {spec.op} {spec.seq} {spec.text!r}: {why}")
    seq = next(s for s, group in slots if any(e is event for e in group))
    raise IllegalAction(f"correction {changes_said(events, specs)}: then seq {seq} "
                        f"({event.type} by {event.player}): {why}")


def _same_session(events: Sequence[Any], spec: ChangeSpec, new: Any) -> None:
    """Refuse a ``hand_started`` that names another session than the hand's: a correction
    does not move a hand between sessions (each session's books count the hands recorded in
    it, docs/COMMANDS.md "sessions and the books"), and importing the hand again with ``--session``
    adds nothing, the hand being in the ledger already (README "import"). The host's way for
    a hand read from a file is a new ledger that imports the file with ``--session``; for a
    hand recorded live (no file in its ``source``), voiding it and recording it again in the
    session (``hand again HAND --session S``, :mod:`replay.live.again`; appended events only:
    the void returns every chip).

    Raises:
        IllegalAction: ``"replace 1: the hand_started names session home-w9, the hand is of
            no session: …"``.
    """
    if new.type != "hand_started" or events[0].type != "hand_started":
        return
    was, now = events[0].session, new.session
    if was == now:
        return
    said = "of no session" if was is None else f"of session {was}"
    flag = "" if now is None else f" --session {now}"
    hand = events[0].hand
    if "file" in events[0].source:  # read from a file: the file is the hand, its id taken here
        way = (f"to have it in {now or 'no session'}, import its file into a new ledger "
               f"(`handledger --db NEW import{flag} FILE`)")
    elif now is not None:  # recorded live: voided here, its events recorded again there
        way = (f"to have it in {now}, void it (`handledger void {shell_arg(hand)} --reason … --by "
               "…`) and "
               f"record it again there (`handledger hand again {shell_arg(hand)} --session "
               f"{shell_arg(now)}`)")
    else:
        way = (f"to have it in no session, void it (`handledger void {shell_arg(hand)} --reason … "
               "--by …`)"
               " and record it again: `handledger hand start …` and its actions")
    raise IllegalAction(
        f"{spec.op} {spec.seq}: the hand_started names "
        f"{'no session' if now is None else f'session {now}'}, the hand is {said}: a "
        "correction does not move a hand between sessions (their books would no longer agree),"
        " and importing it again with --session adds nothing (it is in the ledger already); "
        f"{way}")


def _forced_bets_fit(events: Sequence[Any], correction: ev.Correction,
                     specs: Sequence[ChangeSpec]) -> None:
    """:func:`replay.forced_fit.check_still_fits` of the hand ``events`` and as ``correction``
    makes it, its refusal naming the changes (:func:`changes_said`); a stream that did not
    replay is not compared (the correction repairs it), nor a hand voided with the correction
    (it moves no chip: :func:`replay.corrections._changes_something` refuses what changes
    nothing under a void).

    Raises:
        IllegalAction: ``"correction replace 1 (hand_started): the corrected hand's forced
            bets no longer fit its seats: …"``.
    """
    from replay.amendments import effective_events
    from replay.forced_fit import check_still_fits

    try:
        before = effective_events(events)[0]
    except IllegalAction:
        return
    after = effective_events([*events, correction])[0]
    if after and after[-1].type == "hand_voided":
        return  # a voided hand posts nothing: the void's own refusal says so
    short = [ChangeSpec(s.op, s.seq, None if (s.text or "").lstrip().startswith("{")
                        else s.text) for s in specs]  # a JSON event: its seq and type only
    check_still_fits(before, after, f"correction {changes_said(events, short)}")


def _same_whole_hand(events: Sequence[Any], after: Any, specs: Sequence[ChangeSpec]) -> None:
    """:func:`replay.corrected_hand.same_hand`, its refusal naming the changes
    (:func:`changes_said`).

    Raises:
        IllegalAction: ``"correction replace 12 (reveal by Bob) 'pay Ann 200': the corrected
            hand pays out 400: the pot holds 200"``.
    """
    try:
        same_hand(events, after)
    except IllegalAction as exc:
        raise IllegalAction(f"correction {changes_said(events, specs)}: {exc.reason}"
                            ) from None


def changes_said(events: Sequence[Any], specs: Sequence[ChangeSpec]) -> str:
    """The changes of a correction as a refusal names them, each with the event it replaces
    or deletes (its type and player, the stream's ``events`` by seq): ``"replace 12 (reveal
    by Bob) 'pay Ann 200', insert_after 21 'pay Cy 18'"``."""
    def replaced(spec: ChangeSpec) -> str:
        if spec.op == "insert_after" or not 1 <= spec.seq <= len(events):
            return ""
        event = events[spec.seq - 1]
        who = getattr(event, "player", None)
        return f" ({event.type}{' by ' + who if who else ''})"

    return ", ".join(f"{spec.op} {spec.seq}{replaced(spec)}"
                     + (f" {spec.text!r}" if spec.text is not None else "") for spec in specs)


def payouts_as_at_the_table(events: Sequence[Any], correction: ev.Correction,
                            specs: Sequence[ChangeSpec]) -> None:
    """Refuse a correction (``specs``, made ``correction`` of the stream ``events``) whose
    corrected hand pays out in a way a live ``act`` or ``end`` refuses
    (:mod:`replay.payout_rules`): a payout to a player who folded, a player paid beyond what
    he can win (the pots he is eligible for and his uncalled bet), payouts (and a rake) that
    take an uncalled bet for the pots, a complete hand's pot paid short (chips to nobody); a
    payout beyond the pot is :func:`replay.corrected_hand.same_hand`'s.

    The rules are checked over the whole corrected hand, so a correction of another event
    (a fold put in where a payout stands) is held to them as much as a changed payout; but
    only what the correction breaks or makes worse is refused, by rule and player, in chips:
    what the hand had already stays as recorded. An imported hand keeps what its file
    recorded (a payout the site made; its rake is held as one recorded at the table:
    :func:`replay.payout_rules.hand_rake`): it may still be corrected, and a
    correction that keeps a pre-existing shortfall (or overpayment) as it was goes in, while
    one that deepens it is refused. A stream that did not replay is not compared (the
    correction repairs it), as :func:`replay.corrected_hand.same_hand`.

    Raises:
        IllegalAction: ``"correction replace 21 'pay Bob 18': Bob folded: …"``: the changes,
            then the live refusal's words.
    """
    fault = payout_fault(events, correction)
    if fault is not None:
        said = ", ".join(f"{s.op} {s.seq}" + (f" {s.text!r}" if s.text is not None else "")
                         for s in specs)
        raise IllegalAction(f"correction {said}: {fault}")


def _payout_above_zero(new: Any) -> None:
    """Refuse a payout of no chips that a change puts in (``new``), as the live ``pay``
    refuses it (:func:`replay.payout_rules.above_zero`), to anybody: to a player who folded
    too (:func:`payouts_as_at_the_table` weighs the chips paid, and a 0 paid none, so ``pay
    Erin 0`` to a folded Erin went in). A payout taken back is ``--delete SEQ``.

    Raises:
        IllegalAction: the live refusal's words and the ``--delete`` hint.
    """
    if new.type != "recorded_payout":
        return
    from replay.payout_rules import above_zero

    try:
        above_zero(new)
    except IllegalAction as exc:
        raise IllegalAction(f"{exc}; a payout recorded wrongly is taken back with --delete "
                            "SEQ") from None


def _one_change_a_seq(specs: Sequence[ChangeSpec]) -> None:
    """Refuse an event replaced or deleted twice in one correction (``--replace 9 X
    --replace 9 Y``): which one is meant? Several ``--insert-after`` of one seq are a list.

    Raises:
        IllegalAction: naming the seq and its two changes.
    """
    seen: dict[int, str] = {}
    for spec in specs:
        if spec.op == "insert_after":
            continue
        if spec.seq in seen:
            raise IllegalAction(f"seq {spec.seq} is given twice (--{seen[spec.seq]} and "
                                f"--{spec.op}): replace or delete an event once")
        seen[spec.seq] = spec.op


def _not_original(events: Sequence[Any], seq: int) -> str:
    """Why ``seq`` cannot be changed: no such event, or it is a correction or void (taken
    back by ``undo`` when it is the last thing appended to the hand)."""
    kind = events[seq - 1].type if 1 <= seq <= len(events) else None
    if kind in ("correction", "hand_voided"):
        what = "a void" if kind == "hand_voided" else "a correction"
        return (f"seq {seq} is {what} ({kind}), not an original event: `handledger undo` "
                "takes back the last correction or void appended to the hand")
    return f"seq {seq} is not an original event of the hand"


def _fold_prefix(prefix: list[tuple[int, Any]], seq: int, decimals: int) -> Any:
    """Fold ``(stream seq, event)`` pairs; a refusal names the event by its stream seq, its
    amounts as a hand of ``decimals`` writes them (:func:`replay.typed.reason_as_typed`)."""
    try:
        return fold([e for _, e in prefix])
    except IllegalAction as exc:
        at = prefix[exc.seq - 1][0] if exc.seq and exc.seq <= len(prefix) else exc.seq
        raise IllegalAction(f"the corrected hand breaks before seq {seq}: event {at}: "
                            f"{reason_as_typed(exc, decimals)}") from None
