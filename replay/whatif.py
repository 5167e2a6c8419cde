"""What-if and corrections of a recorded hand: never rewrite history, append a correction.

A change names an ORIGINAL event of the hand by its sequence number in the hand stream (what
``handledger show`` and ``handledger history`` print) — the same numbering
:func:`replay.amendments.effective_events` uses. Three kinds:

* ``replace SEQ ACTION`` — the event at SEQ becomes ACTION;
* ``insert_after SEQ ACTION`` — ACTION is inserted after the event at SEQ;
* ``delete SEQ`` — the event at SEQ is dropped.

ACTION is PHH notation decided against the state of the (corrected) hand at that point
(``"Bob cbr 20"``, ``"p2 cc"``, ``"d db 7h"``), or one of ``"pay PLAYER AMOUNT"`` (a recorded
payout: what the table pushed to PLAYER), ``"returned PLAYER AMOUNT"`` (an uncalled bet given
back), ``"rake AMOUNT"`` (what the table took from the pot for itself: a ``recorded_rake``,
PHH's ``rake``, FORMATS.md §1), ``"end"`` (hand ended), or a JSON event object
(``{"type": "check", ...}``; a ``hand_started`` that leaves its odd-chip order out takes its
game's, stud's ``card_by_suit``, as a JSON-lines file's does: RULES.md §5).

:func:`build_correction` turns changes into a :class:`ledger.model.events.Correction` and checks
that the corrected hand replays legally; :func:`what_if` compares the hand (and its session) before
and after without writing anything.

Raises:
    engine.errors.IllegalAction: an action that is not legal at its point, a seq the hand
        does not have, or a corrected hand the engine rejects.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from pydantic import ValidationError

from engine.errors import IllegalAction
from engine.notation import format_amount, parse_amount, player_name, to_event
from ledger.formats.reading import with_game_tie_order
from ledger.model import events as ev
from ledger.model.errors import locating, quoted
from ledger.store.streams import platform_names
from replay.amendments import split_stream
from replay.fold import HandReplay, fold, replay_events
from replay.shown_names import as_stored, spaced_as_seat, stored_player
from replay.typed import reason_as_typed, stream_decimals

Op = Literal["replace", "insert_after", "delete"]


@dataclass(frozen=True)
class ChangeSpec:
    """One requested change before conversion: op, original seq, action text (None: delete)."""

    op: Op
    seq: int
    text: str | None = None


def parse_action(state: Any, text: str, names: Mapping[str, str] | None = None, *,
                 seated: Sequence[str] = ()) -> Any:
    """The event ``text`` means in ``state`` (see the module doc for the accepted forms).
    ``names``: platform id → the name he played under (:func:`ledger.store.streams.
    platform_names`), so that a player of the hand (``state``'s, else ``seated``: a JSON
    event is read without a state) known by his id may be named as the reads show him
    (:mod:`replay.shown_names`), in text or as a JSON event's ``player``.

    Raises:
        IllegalAction: text that is not an action, an unknown player, a name two players of
            the hand are shown by, or a bad amount (one beyond
            :data:`ledger.model.events.MAX_CHIPS` too).
    """
    try:
        players = state.players if state is not None else seated
        return _parse_action(state, text, names or {}, players)
    except ValidationError as exc:  # an amount the event model refuses
        first = exc.errors()[0]
        if first.get("type") == "less_than_equal":
            raise IllegalAction(f"{first.get('input')} chips is beyond the largest amount a "
                                f"ledger holds ({ev.MAX_CHIPS} chips)") from None
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise IllegalAction(f"{where}: {first.get('msg')}") from None


def _parse_action(state: Any, text: str, names: Mapping[str, str],
                  players: Sequence[str]) -> Any:
    body = text.strip()
    if body.startswith("{"):
        from ledger.formats.jsonl.lines import no_duplicates

        try:  # a key given twice is refused, as in a JSON-lines file
            data = json.loads(body, object_pairs_hook=no_duplicates)
            if names and isinstance(data, dict) and isinstance(data.get("player"), str):
                data["player"] = stored_player(data["player"], players, names)
            event = ev.parse_event(data)
        except (ValueError, TypeError) as exc:
            raise IllegalAction(f"{quoted(text)} is not a JSON event: {exc}") from None
        except RecursionError:  # nested past the parser: no event nests so deep
            raise IllegalAction(f"not a JSON event: nested more than {ev.MAX_DEPTH} levels "
                                "deep") from None
        # a hand_started that leaves the odd-chip order out takes its game's (RULES.md §5)
        return with_game_tie_order(event) if event.type == "hand_started" else event
    if names:
        body = as_stored(body, players, names)
    body = spaced_as_seat(body, players)  # "pay Phil Ivey 10": his seat, as the notation reads
    parts = body.split()
    if parts == ["end"]:
        return ev.HandEnded(status="complete")
    if parts and parts[0] in ("pay", "returned"):
        if len(parts) != 3:
            raise IllegalAction(f"{quoted(text)}: expected '{parts[0]} PLAYER AMOUNT' (a "
                                "player may be named by his seat too, p1 … pN)")
        amount = parse_amount(parts[2], state.started.unit.decimals)
        return ev.RecordedPayout(
            player=player_name(state, parts[1]), amount=amount, returned=parts[0] == "returned"
        )
    if parts and parts[0] == "rake":
        return _rake(state, text, parts)
    return to_event(state, body)


def _rake(state: Any, text: str, parts: list[str]) -> ev.RecordedRake:
    """``rake AMOUNT``: the chips the table took from the pot, a whole number above 0 in the
    hand's unit (FORMATS.md §1, PHH's ``rake``).

    Raises:
        IllegalAction: not one amount, or one that is not above 0.
    """
    if len(parts) != 2:
        raise IllegalAction(f"{quoted(text)}: expected 'rake AMOUNT' (the chips the table took "
                            "from the pot)")
    amount = parse_amount(parts[1], state.started.unit.decimals)
    if amount <= 0:
        raise IllegalAction(f"rake {parts[1]}: a rake is a number of chips above 0")
    return ev.RecordedRake(amount=amount)


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


def _carry_kept(spec: ChangeSpec, group: Sequence[Any], new: Any) -> None:
    """Refuse a change that deletes or replaces a ``carry_over`` or makes one: chips carried
    between hands are recorded on both hands as the next one starts (RULES.md §3.8, §7.1), and
    the other hand holds them; what the carrying hand paid is corrected instead.

    Raises:
        IllegalAction: naming the change and the hand the chips went to or came from.
    """
    old = group[0] if group and spec.op != "insert_after" else None
    for e in (old, new):
        if e is not None and e.type == "carry_over":
            way = "to" if e.direction == "out" else "from"
            raise IllegalAction(
                f"{spec.op} {spec.seq}: a carry_over records chips carried {way} hand "
                f"{e.other_hand} (RULES.md §3.8, §7.1), written on both hands as the next one "
                "starts; a correction does not change it")


def build_correction(
    events: Sequence[Any],
    specs: Sequence[ChangeSpec],
    *,
    reason: str,
    by: str,
    positions: dict[int, int] | None = None,
    keep_end: bool = True,
    names: Mapping[str, str] | None = None,
) -> ev.Correction:
    """A correction of the hand stream ``events`` (originals plus earlier corrections).

    Changes are converted in ascending seq order (ties in the order given), each against the
    state of the hand corrected so far. ``positions`` maps a seq to its ledger position (what
    :attr:`ledger.model.events.Correction.positions` records); ``keep_end``: the corrected hand
    must be the same whole hand (:func:`same_hand`; a void's correction drops the end);
    ``names``: the platform names an action may name a player by (:func:`parse_action`). The
    corrected hand is then replayed:

    Raises:
        IllegalAction: no changes, a seq the hand does not have, an insertion after the
            hand's end, an action not legal at its point, or a corrected hand the engine
            rejects (the reason says which event).
    """
    if not specs:
        raise IllegalAction("no changes given (use --replace, --insert-after or --delete)")
    _one_change_a_seq(specs)
    slots = _slots(events)
    index = {seq: k for k, (seq, _) in enumerate(slots)}
    seated = [seat.player for seat in events[0].seats] if events[0].type == "hand_started" else []
    changes: list[ev.Change] = []
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
                new = parse_action(state, spec.text, names, seated=seated)
            except IllegalAction as exc:
                said = reason_as_typed(exc, stream_decimals(events))
                raise IllegalAction(f"{spec.op} {spec.seq} {spec.text!r}: {said}") from None
        elif slots[k][0] == 1 and spec.op == "delete":
            raise IllegalAction("the hand_started event cannot be deleted (void the hand)")
        _carry_kept(spec, slots[k][1], new)
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
        same_hand(events, after)
        payouts_as_at_the_table(events, correction, specs)
    return correction


def payouts_as_at_the_table(events: Sequence[Any], correction: ev.Correction,
                            specs: Sequence[ChangeSpec]) -> None:
    """Refuse a correction (``specs``, made ``correction`` of the stream ``events``) whose
    corrected hand pays out in a way a live ``act`` or ``end`` refuses
    (:mod:`replay.payout_rules`): a payout to a player who folded, a player paid beyond what
    he can win (the pots he is eligible for and his uncalled bet), payouts (and a rake) that
    take an uncalled bet for the pots, a complete hand's pot paid short (chips to nobody); a
    payout beyond the pot is :func:`same_hand`'s.

    The rules are checked over the whole corrected hand, so a correction of another event
    (a fold put in where a payout stands) is held to them as much as a changed payout; but
    only what the correction breaks or makes worse is refused, by rule and player, in chips:
    what the hand had already stays as recorded. An imported hand keeps what its file
    recorded (a payout the site made; its rake is held as one recorded at the table:
    :func:`replay.payout_rules.hand_rake`): it may still be corrected, and a
    correction that keeps a pre-existing shortfall (or overpayment) as it was goes in, while
    one that deepens it is refused. A stream that did not replay is not compared (the
    correction repairs it), as :func:`same_hand`.

    Raises:
        IllegalAction: ``"correction replace 21 'pay Bob 18': Bob folded: …"``: the changes,
            then the live refusal's words.
    """
    fault = payout_fault(events, correction)
    if fault is not None:
        said = ", ".join(f"{s.op} {s.seq}" + (f" {s.text!r}" if s.text is not None else "")
                         for s in specs)
        raise IllegalAction(f"correction {said}: {fault}")


def payout_fault(events: Sequence[Any], correction: ev.Correction) -> str | None:
    """What a live ``act`` or ``end`` would refuse in the hand ``events`` corrected by
    ``correction`` that it did not refuse before (:func:`replay.payout_rules.new_fault`: the
    rules of :func:`payouts_as_at_the_table`), in the live refusal's words; None when the
    correction breaks none of them, or ``events`` did not replay (the correction repairs
    them).

    Raises:
        IllegalAction: the corrected hand does not replay.
    """
    from replay.fold import fold_stream
    from replay.payout_rules import new_fault

    try:
        before = fold_stream(events)[0]
    except IllegalAction:
        return None
    return new_fault(before, fold_stream([*events, correction])[0])


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


def _fold_prefix(prefix: list[tuple[int, Any]], seq: int, decimals: int) -> Any:
    """Fold ``(stream seq, event)`` pairs; a refusal names the event by its stream seq, its
    amounts as a hand of ``decimals`` writes them (:func:`replay.typed.reason_as_typed`)."""
    try:
        return fold([e for _, e in prefix])
    except IllegalAction as exc:
        at = prefix[exc.seq - 1][0] if exc.seq and exc.seq <= len(prefix) else exc.seq
        raise IllegalAction(f"the corrected hand breaks before seq {seq}: event {at}: "
                            f"{reason_as_typed(exc, decimals)}") from None


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


# ------------------------------------------------------------------------------------------
# What-if


@dataclass(frozen=True)
class Downstream:
    """A later hand of the session whose starting stack no longer follows this hand's final
    stack for ``player`` (``expected`` is the corrected final stack, ``was`` the old one)."""

    hand: str
    player: str
    starting: int
    expected: int
    was: int

    def as_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "player": self.player, "starting": self.starting,
                "expected": self.expected, "was": self.was,
                "diff": self.starting - self.expected}


@dataclass
class WhatIf:
    """Before/after of one hand and the consequences for its session: ``session_before`` /
    ``session_after`` are each player's session result in chips with the books' net of every
    hand (:func:`paid_net`, what ``balances`` adds up)."""

    hand: str
    session: str | None
    before: HandReplay
    after: HandReplay
    correction: ev.Correction
    downstream: list[Downstream] = field(default_factory=list)
    session_before: dict[str, int] = field(default_factory=dict)
    session_after: dict[str, int] = field(default_factory=dict)

    @property
    def rules(self) -> tuple[dict[str, int | None], dict[str, int | None],
                             dict[str, int | None]]:
        """``(before, after, diff)``: each player's net by the rules, in chips, None where a
        showdown that cannot be checked leaves it unknown (never the net as paid in its
        place; :func:`replay.unknown_rules.rules_nets`)."""
        from replay.unknown_rules import rules_nets

        return rules_nets(self.before, self.after)

    @property
    def diff(self) -> dict[str, int | None]:
        """Each player's change of his net by the rules (None: not known), in chips."""
        return self.rules[2]

    @property
    def unknown(self) -> tuple[Any, Any]:
        """``(before, after)``: :class:`replay.unknown_rules.UnknownResult` of each when its
        showdown cannot be checked, else None."""
        from replay.unknown_rules import unknown_result

        return unknown_result(self.before), unknown_result(self.after)

    @property
    def paid_diff(self) -> dict[str, int]:
        b, a = paid_net(self.before), paid_net(self.after)
        return {p: a.get(p, 0) - b.get(p, 0) for p in {**b, **a}}

    def as_json(self) -> dict[str, Any]:
        """``{"hand", "before", "after", "diff"}`` (the nets by the rules, a player's null
        where a showdown that cannot be checked leaves it unknown), ``rules_unknown``
        (``{"before", "after"}``: null, or what is known of such a showdown:
        :meth:`replay.unknown_rules.UnknownResult.as_json`), ``paid_before`` /
        ``paid_after`` / ``paid_diff`` (as the table paid), ``downstream``, ``session``."""
        before, after, diff = self.rules
        unknown = self.unknown
        return {
            "hand": self.hand,
            "before": before,
            "after": after,
            "diff": diff,
            "rules_unknown": {k: u.as_json() if u is not None else None
                              for k, u in zip(("before", "after"), unknown, strict=True)},
            "paid_before": paid_net(self.before),
            "paid_after": paid_net(self.after),
            "paid_diff": self.paid_diff,
            "downstream": [d.as_dict() for d in self.downstream],
            "session": {
                "name": self.session,
                "before": self.session_before,
                "after": self.session_after,
                "diff": {p: self.session_after.get(p, 0) - self.session_before.get(p, 0)
                         for p in {**self.session_before, **self.session_after}},
            },
            "discrepancies_after": [d.sentence() for d in self.after.discrepancies],
            "changes": [c.model_dump(mode="json") for c in self.correction.changes],
        }


def paid_net(r: HandReplay) -> dict[str, int]:
    """Each player's net as the table actually paid it: the books' net
    (:attr:`replay.hand_replay.HandReplay.paid_net`, what ``balances`` adds up: chips paid by the
    table minus chips put in; the engine's net when the payouts are unknown). ``net`` is the
    engine's result, so a payout correction moves this one, not ``net``."""
    return dict(r.paid_net)


def _paid_final(r: HandReplay) -> dict[str, int]:
    return {p: r.result.starting[p] + n for p, n in paid_net(r).items()}


def what_if(ledger: Any, hand: str, specs: Sequence[ChangeSpec]) -> WhatIf:
    """Apply ``specs`` to ``hand`` in memory and compare; writes nothing. An action may
    name a player known by a platform id as the reads show him (:func:`parse_action`).

    Raises:
        NotFound: no such hand.
        IllegalAction: as :func:`build_correction`, or a change of what the hand carries to
            the session's next hand once a later hand started (:func:`replay.carry.carry_kept`).
    """
    with locating(hand=hand):
        rows = ledger.read(hand)
        events = [r.event for r in rows]
        correction = build_correction(events, specs, reason="what-if", by="what-if",
                                      names=platform_names(ledger))
        out = compare(ledger, hand, rows, correction)
        from replay.carry import carry_kept

        carry_kept(ledger, hand, out.session, out.before, out.after, f"correcting hand {hand}")
        return out


def compare(ledger: Any, hand: str, rows: Sequence[Any], correction: ev.Correction) -> WhatIf:
    """:func:`what_if` of a correction already made: ``rows`` the hand's stored rows (its
    stream must replay), ``correction`` appended after them in memory; writes nothing.

    Raises:
        IllegalAction: the hand before or after does not replay.
    """
    events = [r.event for r in rows]
    session = rows[0].session
    before = replay_events(events, session=session)
    after = replay_events([*events, correction], session=session)
    out = WhatIf(hand=hand, session=session, before=before, after=after, correction=correction)
    if session is not None:
        _session_effects(ledger, out)
    return out


def _session_effects(ledger: Any, out: WhatIf) -> None:
    """The session's results before and after, and the later hands whose starting stacks
    no longer follow (:func:`_downstream`)."""
    streams = ledger.streams(kind="hand", session=out.session)
    later = streams[streams.index(out.hand) + 1 :] if out.hand in streams else []
    before: dict[str, HandReplay] = {}
    for stream in streams:
        if stream == out.hand:
            b, a = paid_net(out.before), paid_net(out.after)
            before[stream] = out.before
        else:
            try:
                replayed = replay_events([r.event for r in ledger.read(stream)])
            except IllegalAction:
                continue
            before[stream] = replayed
            b = a = paid_net(replayed)
        for p, n in b.items():
            out.session_before[p] = out.session_before.get(p, 0) + n
        for p, n in a.items():
            out.session_after[p] = out.session_after.get(p, 0) + n
    out.downstream.extend(_downstream(ledger, out, before, later))


def downstream_of(ledger: Any, hand: str, session: str, before: HandReplay,
                  after: HandReplay) -> list[Downstream]:
    """The later hands of ``session`` whose starting stack of a player no longer follows
    once ``hand`` is ``after`` instead of ``before`` (each a replay of it), as
    :func:`what_if` names them (:func:`_downstream`; the other hands replayed as stored, one
    that does not replay or is voided left out: it starts nothing the books follow). Reads
    only."""
    streams = ledger.streams(kind="hand", session=session)
    later = streams[streams.index(hand) + 1:] if hand in streams else []
    if not later:
        return []
    replays: dict[str, HandReplay] = {}
    for stream in streams:
        if stream == hand:
            replays[stream] = before
            continue
        try:
            replays[stream] = replay_events([r.event for r in ledger.read(stream)])
        except IllegalAction:
            continue
    later = [s for s in later if s in replays and replays[s].result.status != "voided"]
    out = _Change(hand, session, before, after)
    return _downstream(ledger, out, replays, later)


class _Change(NamedTuple):
    """What :func:`_downstream` reads of a :class:`WhatIf`: the hand changed, its session
    and its replays before and after the change."""

    hand: str
    session: str | None
    before: HandReplay
    after: HandReplay


def _downstream(ledger: Any, out: WhatIf | _Change, before: dict[str, HandReplay],
                later: list[str]) -> list[Downstream]:
    """The later hands whose starting stack of a player no longer follows because of the
    correction: his stack after his previous hand, the correction applied (the hand's
    effective, as-corrected result: never the original's), plus what he bought since
    (the audit's ``stack_continuity``, README: audit) differs from the stack he starts with,
    and the correction changed that expected stack. In a session that is not opened (no
    book entries are followed) a later hand's start is compared with the corrected final
    stack of this hand."""
    from ledger.audit.books import build_series, hand_facts
    from ledger.audit.load import session_rows

    if not later:
        return []
    assert out.session is not None
    rows = session_rows(ledger, sessions=[out.session])
    position = {stream: ledger.read(stream, upto=1)[0].position for stream in before}

    def starts(hand: HandReplay) -> dict[tuple[str, str], Any]:
        facts = [hand_facts(hand if stream == out.hand else r, ord=k, position=position[stream])
                 for k, (stream, r) in enumerate(before.items(), 1)]
        book = build_series(rows, facts).sessions.get(out.session)
        return {(s.hand, s.player): s for s in book.starts} if book is not None else {}

    was, now = starts(out.before), starts(out.after)
    if now:
        return [Downstream(hand=s.hand, player=s.player, starting=s.actual, expected=s.expected,
                           was=was[key].expected if key in was else s.expected)
                for key, s in now.items()
                if s.hand in later and s.expected is not None and s.expected != s.actual
                and (key not in was or was[key].expected != s.expected)]
    old_final, new_final = _paid_final(out.before), _paid_final(out.after)
    pending = {p for p in new_final if new_final[p] != old_final[p]}
    found = []
    for stream in later:
        if not pending:
            break
        for seat in ledger.read(stream, upto=1)[0].event.seats:
            if seat.player in pending:
                pending.discard(seat.player)
                if seat.stack != new_final[seat.player]:
                    found.append(Downstream(hand=stream, player=seat.player,
                                            starting=seat.stack,
                                            expected=new_final[seat.player],
                                            was=old_final[seat.player]))
    return found
