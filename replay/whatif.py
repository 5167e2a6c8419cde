"""What-if of a recorded hand: the hand (and its session) before and after a correction,
compared in memory without writing anything (:func:`what_if`; the correction is built by
:func:`replay.correction_build.build_correction`).

The session's consequences are each player's session result before and after and the later
hands whose starting stack no longer follows (:class:`Downstream`).

Raises:
    engine.errors.IllegalAction: as :func:`replay.correction_build.build_correction`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.errors import locating
from ledger.store.streams import platform_names, read_hands
from replay.correction_build import ChangeSpec, build_correction, refuse_under_void
from replay.fold import HandReplay, replay_events


@dataclass(frozen=True)
class Downstream:
    """A later hand of the session whose starting stack no longer follows this hand's final
    stack for ``player`` (``expected`` is the corrected final stack, ``was`` the old one).
    ``refused``: when the later hand, its start corrected to every ``expected`` stack of it,
    is not legal, the engine's refusal of that corrected hand (naming its first action that
    must change too: :func:`follow_refusal`); None when that correction would go in."""

    hand: str
    player: str
    starting: int
    expected: int
    was: int
    refused: str | None = None
    #: the hand itself, its void undone (:func:`start_unfollowed`): ``expected`` is the
    #: player's stack the books have before it; ``voided``: the latest hand of the session
    #: before it that seats him and is voided ("": none)
    itself: bool = False
    voided: str = ""
    #: chips he bought between this hand and the later one (in ``expected`` and ``was``)
    bought: int = 0
    #: the stack this hand as it stood when the later hand was dealt leaves him, with
    #: ``bought`` (:attr:`ledger.audit.books.StartCheck.stood`); None: not followed so
    stood: int | None = None
    #: ``bought`` is what he bought since this hand (his previous hand in the books); False
    #: when it is not (this hand voided: the books count from the hand before it)
    since: bool = True
    #: the hand the later one was dealt on as it stood (``stood``): this one, or, of several
    #: voided together, the latest before it
    source: str = ""

    @property
    def as_stood(self) -> bool:
        """Whether the later hand started him on this hand as it stood then (``stood``): the
        chips at the table are facts, so it stands as played and the difference is owed in
        money (README "A correction after the chips moved on"; the audit finds nothing)."""
        return not self.itself and self.stood == self.starting

    def as_dict(self) -> dict[str, Any]:
        out = {"hand": self.hand, "player": self.player, "starting": self.starting,
               "expected": self.expected, "was": self.was,
               "diff": self.starting - self.expected}
        if self.bought:
            out["bought"] = self.bought
        if self.as_stood:
            out["as_played"] = True
        if self.itself:
            out = {**out, "itself": True, "voided": self.voided}
        return out if self.refused is None else {**out, "refused": self.refused}


def follow_refusal(events: Sequence[Any], stacks: dict[str, int]) -> str | None:
    """Why the hand ``events`` (its stored stream) cannot follow a corrected hand before it by
    its start alone: the engine's refusal of the correction that replaces its
    ``hand_started`` (seq 1, as in force) by one seating each player of ``stacks`` with that
    stack (``correct HAND --replace 1 JSON``), in ``correct``'s words (``the corrected hand is
    not legal: event 9 (all_in by Dee): all-in is to 206, not 188``: an all-in puts in the
    whole stack); None when that correction would be taken, or the stream does not
    replay (it is an audit finding of its own)."""
    from replay.amendments import effective_events

    try:
        start = effective_events(events)[0][0]
    except IllegalAction:
        return None
    if start.type != "hand_started":
        return None
    seats = [seat.model_copy(update={"stack": stacks.get(seat.player, seat.stack)})
             for seat in start.seats]
    text = start.model_copy(update={"seats": seats}).model_dump_json()
    try:
        build_correction(events, [ChangeSpec("replace", 1, text)], reason="follow", by="check")
    except IllegalAction as exc:
        return str(exc)
    return None


#: The ledger position of a change not appended yet: after every row (what-if, correct).
_LAST = 1 << 62


def with_refusals(ledger: Any, found: list[Downstream]) -> list[Downstream]:
    """``found``, each later hand's entries with :func:`follow_refusal` of its start corrected
    to all of their expected stacks."""

    hands: dict[str, dict[str, int]] = {}
    for d in found:
        hands.setdefault(d.hand, {})[d.player] = d.expected
    refused = {hand: follow_refusal([r.event for r in ledger.read(hand)], stacks)
               for hand, stacks in hands.items()}
    return [replace(d, refused=refused[d.hand]) if refused[d.hand] else d for d in found]


class AwardChange(NamedTuple):
    """A pot of a hand in play whose award by the rules a change moves: ``pot`` its name
    (``Main pot``, ``Side pot 1``), ``amount`` its chips after the change, ``before`` and
    ``after`` whom the rules award it to (``Ann``, ``Ann 3, Bob 2`` when split; ``nobody``:
    not awarded, the showdown not reached or its cards not all shown)."""

    pot: str
    amount: int
    before: str
    after: str

    def sentence(self, waits: str = "") -> str:
        """``Main pot 4 by the rules: Ann before, Bob after (the hand is in play: nothing is
        paid until it ends)``; ``waits``, what the hand after the change waits for as
        ``state`` says it, names who is to act when it leaves the pot to nobody yet: ``Main
        pot 6 by the rules: Bob 3, Cy 3 before, nobody yet after (now: phase declare, Ann to
        act: Ann dcl high|low|swing or Ann f (give up); the hand is in play: nothing is paid
        until it ends)``."""
        if self.after == "nobody" and waits:
            return (f"{self.pot} {self.amount} by the rules: {self.before} before, nobody yet "
                    f"after (now: {waits}; the hand is in play: nothing is paid until it ends)")
        return (f"{self.pot} {self.amount} by the rules: {self.before} before, {self.after} "
                "after (the hand is in play: nothing is paid until it ends)")


def award_changes(before: HandReplay | None, after: HandReplay) -> list[AwardChange]:
    """The pots of a hand still in play (not ended before nor after) whose award by the rules
    (RULES.md §1.6, §2) ``after`` changes from ``before``: at its showdown the rules award
    each pot, though nothing is paid and nobody's net moves until the hand ends (README: a
    hand in play pays nothing yet), so a change of winner shows only here. ``[]`` for a hand
    ended either side, or one that did not replay before."""
    if before is None or "open" not in (before.result.status, after.result.status) or \
            before.result.status != after.result.status:
        return []
    from engine.awards import pot_name

    was, now = before.result.pots, after.result.pots
    out = []
    for i in range(max(len(was), len(now))):
        then = _winners(was[i].awards if i < len(was) else {})
        there = _winners(now[i].awards if i < len(now) else {})
        if then != there:
            amount = now[i].amount if i < len(now) else was[i].amount
            out.append(AwardChange(pot_name(i), amount, then, there))
    return out


def _winners(awards: dict[str, int]) -> str:
    """``Ann``, ``Ann 3, Bob 2``, or ``nobody`` for no award."""
    if len(awards) == 1:
        return next(iter(awards))
    return ", ".join(f"{p} {c}" for p, c in awards.items()) or "nobody"


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
    #: what the changes would change in the hand's start in force, in words (``seat Bob's
    #: stack 15 → 150``: :func:`replay.started_changes.start_moved`), as ``correct`` says it
    start: tuple[str, ...] = ()

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
        ``paid_after`` / ``paid_diff`` (as the table paid), ``downstream``, ``session``,
        ``award_changes`` (a hand in play: the pots whose winner by the rules moves,
        :func:`award_changes`, each ``{"pot", "amount", "before", "after"}``), ``start``
        (what the hand's start would change, in words: ``["seat Bob's stack 15 → 150"]``)."""
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
            "award_changes": [c._asdict() for c in award_changes(self.before, self.after)],
            "changes": [c.model_dump(mode="json") for c in self.correction.changes],
            "start": list(self.start),
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
    name a player known by a platform id as the reads show him
    (:func:`replay.action_text.parse_action`).

    Raises:
        NotFound: no such hand.
        IllegalAction: as :func:`replay.correction_build.build_correction`, the hand voided
            (:func:`replay.correction_build.refuse_under_void`), or a change of
            what the hand carries to the session's next hand once a later hand started
            (:func:`replay.carry.carry_kept`).
    """
    from replay.correction_twice import refuse_made_already
    from replay.stored_unit import export_chip

    with locating(hand=hand), said_as_what_if():
        rows = ledger.read(hand)
        events = [r.event for r in rows]
        names = platform_names(ledger)
        chip = export_chip(ledger, events[0])
        refuse_made_already(hand, events, specs, names=names, chip=chip)
        correction = build_correction(events, specs, reason="what-if", by="what-if",
                                      names=names, chip=chip)
        refuse_under_void(hand, events, correction)
        out = compare(ledger, hand, rows, correction)
        from replay.carry import carry_kept
        from replay.started_changes import start_moved

        out = replace(out, start=start_moved(events, correction))  # as `correct` says it

        carry_kept(ledger, hand, out.session, out.before, out.after, f"what-if of hand {hand}")
        return out


#: How a refusal of ``correct``'s checks is said of a what-if (:func:`said_as_what_if`): the
#: same facts, in the words of what the user of ``whatif`` typed.
_AS_WHAT_IF = ((re.compile(r"^correction "), "what-if "),
               (re.compile(r"\bthe corrected hand's forced bets\b"),
                "the forced bets of the hand with these changes"),
               (re.compile(r"\bthe corrected hand\b"), "the hand with these changes"),
               (re.compile(r"\bbefore this correction\b"), "before these changes"),
               (re.compile(r"\bin the same correction\b"), "in the same what-if"),
               (re.compile(r"\ba correction does not change it\b"),
                "no change of it does (a what-if as a correction)"),
               (re.compile(r"\ba correction under a void\b"), "a change under a void"),
               (re.compile(r"; nothing written"), ""))


def as_what_if(text: str) -> str:
    """A refusal of a correction (``correction delete 17: the corrected hand …; nothing
    written``) said of a what-if of the same changes (``what-if delete 17: the hand with
    these changes …``): nothing is written by a what-if, and its user typed no correction."""
    for pattern, words in _AS_WHAT_IF:
        text = pattern.sub(words, text)
    return text


@contextmanager
def said_as_what_if() -> Iterator[None]:
    """Within the block, a refusal (an :class:`engine.errors.IllegalAction`) is said of a
    what-if (:func:`as_what_if`), its amounts still kept apart for a hand kept in cents."""
    try:
        yield
    except IllegalAction as exc:
        exc.message, exc.reason = as_what_if(exc.message), as_what_if(exc.reason)
        if exc.template is not None:
            exc.template = as_what_if(exc.template)
        raise


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
    before = session_replays(ledger, streams, out.hand, out.before)
    for stream, replayed in before.items():
        if stream == out.hand:
            b, a = paid_net(out.before), paid_net(out.after)
        else:
            b = a = paid_net(replayed)
        for p, n in b.items():
            out.session_before[p] = out.session_before.get(p, 0) + n
        for p, n in a.items():
            out.session_after[p] = out.session_after.get(p, 0) + n
    out.downstream.extend(_downstream(ledger, out, before, later))


def session_replays(ledger: Any, streams: Sequence[str], hand: str, before: HandReplay
                    ) -> dict[str, HandReplay]:
    """``{stream: its replay}`` of the hand ``streams`` of a session, in their order, read
    in one query (:func:`ledger.store.streams.read_hands`): ``hand`` as ``before``, every
    other as stored; one that does not replay left out (it starts nothing the books
    follow). Reads only."""
    rows = read_hands(ledger, [s for s in streams if s != hand])
    out: dict[str, HandReplay] = {}
    for stream in streams:
        if stream == hand:
            out[stream] = before
            continue
        try:
            stored = rows[stream] if stream in rows else ledger.read(stream)
            out[stream] = replay_events([r.event for r in stored])
        except IllegalAction:
            continue
    return out


@dataclass(frozen=True)
class SessionHands:
    """A session's hand streams (ledger order), the replay of each as stored (one that does
    not replay left out) and the position of each one's first row: what
    :func:`downstream_of` reads of the ledger, read once for many hands of a session
    (:func:`session_hands`)."""

    streams: list[str]
    replays: dict[str, HandReplay]
    positions: dict[str, int]

    def followed(self, stream: str) -> bool:
        """As :func:`_followed`: the hand replays and is not voided."""
        replay = self.replays.get(stream)
        return replay is not None and replay.result.status != "voided"

    def with_hand(self, hand: str, before: HandReplay) -> dict[str, HandReplay]:
        """As :func:`session_replays`: ``hand`` as ``before``, every other as stored."""
        return {s: before if s == hand else self.replays[s] for s in self.streams
                if s == hand or s in self.replays}


def session_hands(ledger: Any, session: str) -> SessionHands:
    """The :class:`SessionHands` of ``session``, its hands read with one query and each
    replayed once. Reads only."""
    streams = ledger.streams(kind="hand", session=session)
    rows = read_hands(ledger, streams)
    replays: dict[str, HandReplay] = {}
    for stream in streams:
        stored = rows[stream] if stream in rows else ledger.read(stream)
        try:
            replays[stream] = replay_events([r.event for r in stored])
        except IllegalAction:
            continue
    return SessionHands(streams, replays, {s: stored[0].position for s, stored in rows.items()})


def downstream_of(ledger: Any, hand: str, session: str, before: HandReplay,
                  after: HandReplay, known: dict[str, SessionHands] | None = None,
                  ) -> list[Downstream]:
    """The later hands of ``session`` whose starting stack of a player no longer follows
    once ``hand`` is ``after`` instead of ``before`` (each a replay of it), as
    :func:`what_if` names them (:func:`_downstream`; the other hands replayed as stored, one
    that does not replay or is voided left out: it starts nothing the books follow). Reads
    only. ``known``: {session: :class:`SessionHands`} kept by a caller that asks of many
    hands while the ledger does not change (the voids of one write, all appended), filled
    here as sessions are met: each session's hands are read and replayed once."""
    if known is not None:
        hands = known.get(session) or known.setdefault(session, session_hands(ledger, session))
        later = hands.streams[hands.streams.index(hand) + 1:] if hand in hands.streams else []
        if not any(hands.followed(s) for s in later):  # every later hand voided
            return []
        replays, positions = hands.with_hand(hand, before), hands.positions
    else:
        streams = ledger.streams(kind="hand", session=session)
        later = streams[streams.index(hand) + 1:] if hand in streams else []
        if not any(_followed(ledger, s) for s in later):  # every later hand voided: none warned
            return []
        replays, positions = session_replays(ledger, streams, hand, before), None
    later = [s for s in later if s in replays and replays[s].result.status != "voided"]
    out = _Change(hand, session, before, after)
    return _downstream(ledger, out, replays, later, positions=positions)


def start_unfollowed(ledger: Any, hand: str, session: str, before: HandReplay,
                     after: HandReplay) -> list[Downstream]:
    """The players whose start of ``hand`` itself the books do not follow once its void is
    undone (``before``: the hand voided, ``after``: back in the books): a voided hand starts
    nothing the books follow (README: net), so a hand it started on voided since, or with it
    (``void a1 a2``), leaves the books another stack for him there (the audit's
    ``stack_continuity``). Each a :class:`Downstream` with ``itself`` and the voided hand
    before it that seats him; empty in a session that follows no book entries. Reads only."""
    streams = ledger.streams(kind="hand", session=session)
    replays = session_replays(ledger, streams, hand, before)
    found = _downstream(ledger, _Change(hand, session, before, after), replays, [hand],
                        itself=True)
    earlier = [s for s in streams[:streams.index(hand)] if s in replays
               and replays[s].result.status == "voided"][::-1] if hand in streams else []

    def voided(player: str) -> str:
        return next((s for s in earlier if player in replays[s].result.starting), "")

    return [replace(d, itself=True, voided=voided(d.player)) for d in found]


def _followed(ledger: Any, stream: str) -> bool:
    """Whether the hand ``stream`` replays and is not voided: one whose starting stacks the
    books follow (:func:`downstream_of`)."""
    try:
        return replay_events([r.event for r in ledger.read(stream)]).result.status != "voided"
    except IllegalAction:
        return False


class _Change(NamedTuple):
    """What :func:`_downstream` reads of a :class:`WhatIf`: the hand changed, its session
    and its replays before and after the change."""

    hand: str
    session: str | None
    before: HandReplay
    after: HandReplay


def _downstream(ledger: Any, out: WhatIf | _Change, before: dict[str, HandReplay],
                later: list[str], *, itself: bool = False,
                positions: dict[str, int] | None = None) -> list[Downstream]:
    """The later hands whose starting stack of a player no longer follows because of the
    correction: his stack after his previous hand, the correction applied (the hand's
    effective, as-corrected result: never the original's), plus what he bought since
    (the audit's ``stack_continuity``, README: audit) differs from the stack he starts with,
    and the correction changed that expected stack. In a session that is not opened (no
    book entries are followed) a later hand's start is compared with the corrected final
    stack of this hand. Names are the series' (:func:`replay.sessions.state.series_names`:
    a buy-in under an alias recorded in another session's stream is the player's).
    ``positions``: the first position of each hand of ``before``, read already."""
    from ledger.audit.books import Revision, Revisions, build_series, hand_facts
    from ledger.audit.load import session_rows
    from replay.late_corrections import revisions
    from replay.sessions.state import series_names

    if not later:
        return []
    assert out.session is not None
    rows = session_rows(ledger, sessions=[out.session])
    aliases = series_names(ledger)  # an alias recorded in another session's stream too
    position = positions if positions is not None else {
        stream: ledger.read(stream, upto=1)[0].position for stream in before}
    # the change appended last: every later hand was dealt on the hand as it stood before it
    revised = dict(revisions(ledger, [out.session]))
    revised[out.hand] = (*revised.get(out.hand, ()), Revision(
        _LAST, 0, "", "", hand_facts(out.before, ord=0, position=position[out.hand])))

    def starts(hand: HandReplay, late: Revisions | None) -> dict[tuple[str, str], Any]:
        facts = [hand_facts(hand if stream == out.hand else r, ord=k, position=position[stream])
                 for k, (stream, r) in enumerate(before.items(), 1)]
        book = build_series(rows, facts, aliases=aliases, revised=late).sessions.get(
            out.session)
        return {(s.hand, s.player): s for s in book.starts} if book is not None else {}

    was, now = starts(out.before, None), starts(out.after, revised)
    if now:
        found = [Downstream(hand=s.hand, player=s.player, starting=s.actual,
                            expected=s.expected,
                            was=was[key].expected if key in was else s.expected,
                            bought=s.bought, stood=s.stood, since=s.previous == out.hand,
                            source=s.revision.before.hand if s.revision else out.hand)
                 for key, s in now.items()
                 if s.hand in later and s.expected is not None and s.expected != s.actual
                 and (key not in was or was[key].expected != s.expected)]
        followed = iter(with_refusals(ledger, [d for d in found if not d.as_stood]))
        return [d if d.as_stood else next(followed) for d in found]
    if itself:  # no book entries followed: nothing before the hand to follow
        return []
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
    return with_refusals(ledger, found)
