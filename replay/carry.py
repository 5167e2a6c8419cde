"""Chips carried from one hand of a session into the next (RULES.md §2.2, §3.8, §5, §7.1:
:func:`ledger.model.carry_rules.carry_sections`).

A declare pot with no eligible winner under ``no_eligible_winner = carry_over``, or odd chips
under ``odd_chip_tie_order = carry_to_next_hand``, are not awarded: they move into the
session's next hand as dead money. Both hands record it, so balances stay exact: the hand
that leaves them gets ``carry_over`` (direction ``out``, naming the next hand) and the next
hand gets ``carry_over`` (direction ``in``, naming the first) right after ``hand_started``.
Only what the table left in the middle is carried: chips it paid out are not carried as well
(``HandReplay.carried_on``). A hand voided or cut short passes the chips carried into it on to
the next hand actually played (RULES.md §7.1): that hand's ``carry_over`` in names it, and it
gets no event after its void.

:func:`link` adds those events to hands about to be appended, in order, looking up the
session's previous hand in the ledger through a callback when it is not among them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from engine.errors import IllegalAction
from ledger.model import events as ev
from ledger.model.batch import Batch
from ledger.model.carry_rules import EITHER, carry_sections
from ledger.model.errors import MalformedInput, NotFound
from ledger.model.shell import shell_arg

Previous = Callable[[str], tuple[str, list[Any]] | None]
Stored = Callable[[str], list[Any] | None]


class LeftToNone(NamedTuple):
    """Chips a session's last hand leaves to a next hand the session does not hold yet
    (:func:`left_to_none`): the ``hand``, the ``chips``, ``came`` the hand they came from when
    the last hand passes on chips carried into it (None when it carries them itself), and
    whether it is ``voided`` (False: it carries them, or its log stops short), whether
    the hand ``came`` is voided too (``came_voided``: it passed them on in its turn), and
    the RULES.md ``sections`` of the rule that carried them, by the options of the hand that
    carried them (``hand``, else ``came``: :func:`ledger.model.carry_rules.carry_sections`)."""

    hand: str
    chips: int
    came: str | None
    voided: bool = False
    came_voided: bool = False
    sections: str = EITHER


#: The source key's start of a batch that only records, on a stored hand, the chips it
#: carried to a hand of the file (its ``carry_over`` out): part of that hand's import.
CARRY_RECORD = "carry:"


def carry_record(batch: Batch) -> bool:
    """Whether ``batch`` only records chips a stored hand carried to a hand of the file (the
    ``carry_over`` out :func:`link` adds; RULES.md §7.1): no hand imported."""
    return (batch.source_key or "").startswith(CARRY_RECORD)


def previous_in(ledger: Any) -> Previous:
    """``previous(session)`` for :func:`link` over a ledger: the session's last stored hand
    (its id and events), or None."""

    def previous(session: str) -> tuple[str, list[Any]] | None:
        hands = ledger.streams(kind="hand", session=session)
        if not hands:
            return None
        return hands[-1], [row.event for row in ledger.read(hands[-1])]

    return previous


def stored_in(ledger: Any) -> Stored:
    """``stored(hand)`` for :func:`link` over a ledger: the events of the stored hand, or
    None when the ledger has no such hand."""

    def stored(hand: str) -> list[Any] | None:
        try:
            return [row.event for row in ledger.read(hand)]
        except NotFound:
            return None

    return stored


def unclaimed(events: Sequence[Any]) -> int:
    """Chips the hand carries out that no ``carry_over`` (out) event records yet: what the
    rules carry less any the table paid out (``HandReplay.carried_on``), or, a hand voided or
    cut short, the chips carried into it, which pass on (RULES.md §7.1)."""
    return _leaves(events)[0]


def _leaves(events: Sequence[Any]) -> tuple[int, str | None]:
    """``(chips, passed)``: :func:`unclaimed` of the hand stream ``events``, and, when they
    are chips carried into a hand voided or cut short, passed on (then the next hand's
    ``carry_over`` in is their only record: the engine takes no event after a void), its
    status (``voided`` or ``incomplete``), else None. A hand in play leaves nothing yet."""
    if not may_pass_on(events):
        return 0, None
    recorded = sum(e.amount for e in events if e.type == "carry_over" and e.direction == "out")
    if recorded:
        return 0, None
    from replay.fold import replay_events  # the engine loads only when a hand is replayed

    hand = replay_events(events)
    status = hand.result.status
    if status == "open":  # in play: its chips count as put in until it ends
        return 0, None
    return hand.carried_on, status if status in ("voided", "incomplete") else None


def may_pass_on(events: Sequence[Any]) -> bool:
    """Whether the hand stream ``events`` may leave chips to the session's next hand: its
    options may carry some (:func:`may_carry`) or it brought some in (a ``carry_over`` in
    follows its ``hand_started``), which pass on when it is voided or cut short."""
    return may_carry(events[0]) or brought_in(events)


def brought_in(events: Sequence[Any]) -> bool:
    """Whether the hand stream ``events`` records chips carried into it (its ``carry_over``
    in comes right after ``hand_started``)."""
    return len(events) > 1 and events[1].type == "carry_over" and events[1].direction == "in"


def may_carry(started: ev.HandStarted) -> bool:
    """Only these options leave chips unawarded; any other hand is not replayed for it."""
    options = started.options
    declare = options.declare
    return (declare is not None and declare.no_eligible_winner == "carry_over") or (
        options.split.odd_chip_tie_order == "carry_to_next_hand"
    )


def link(batches: Sequence[Batch], previous: Previous, stored: Stored | None = None
         ) -> list[Batch]:
    """Return ``batches`` with carry-over events added (see the module doc); a hand already in
    the ledger gets its ``out`` event as an extra batch placed before the next hand.

    ``previous(session)`` returns ``(hand id, events)`` of the session's last stored hand, or
    None; ``stored(hand)`` the events of a stored hand, or None (:func:`stored_in`), where a
    ``carry_over`` in that ``batches`` record already (a file's) names a hand that is not
    among them.

    Raises:
        MalformedInput: a hand's ``carry_over`` in whose amount is not what the hand it names
            carried out (its ``carry_over`` out, else what it leaves: :func:`unclaimed`),
            among ``batches`` or stored, or that names a hand in neither (with ``stored``);
            its line is the row's (nothing is written).
    """
    out: list[Batch] = []
    last: dict[str, int] = {}  # session -> index in out of its latest hand batch
    placed: dict[str, int] = {}  # hand -> index in out of its batch
    whole: dict[int, list[Any]] = {}  # index in out of rows a stored hand goes on with: its stream
    for batch in batches:
        events, hand, session = batch.events, batch.hand_id, batch.session
        if hand is not None and events and events[0].type != "hand_started":
            _goes_on(batch, out, last, whole, previous, stored)
            continue
        if hand is not None and events is not None and brought_in(events):
            _came_as_carried(batch, out, placed, stored)
        if hand is None or events is None or session is None:
            if hand is not None and events is not None:
                placed[hand] = len(out)
            out.append(batch)
            continue
        prior = None if brought_in(events) else _prior(out, last.get(session), previous,
                                                              session)
        if prior is not None:  # (a hand that records what came in already is as recorded)
            prev_hand, prev_events, where = prior
            if where is not None and where in whole:
                prev_events = whole[where]
            chips, passed = _leaves(prev_events)
            if chips:
                leave = ev.CarryOver(amount=chips, direction="out", other_hand=hand)
                come = ev.CarryOver(amount=chips, direction="in", other_hand=prev_hand)
                if passed:  # the chips carried into a voided hand: the in is their record
                    pass
                elif where is None:
                    out.append(Batch(prev_hand, [leave], prev_hand, session,
                                     f"{CARRY_RECORD}{prev_hand}"))
                else:
                    out[where] = out[where].with_events([*out[where].events, leave])
                events = [events[0], come, *events[1:]]
        last[session] = placed[hand] = len(out)
        out.append(batch if events is batch.events else batch.with_events(events))
    return out


def _goes_on(batch: Batch, out: list[Batch], last: dict[str, int], whole: dict[int, list[Any]],
             previous: Previous, stored: Stored | None) -> None:
    """Place ``batch``, rows a stored hand goes on with (a file's copy of a hand in play, or
    the amendments another ledger made: :func:`replay.ingest.completing.continuation`), as
    they are: no ``carry_over`` in is added to a hand that started long ago. When the hand is
    the session's latest so far, the next hand takes what it leaves with these rows: its
    stream, the stored rows and these, is kept in ``whole`` for it."""
    assert batch.events is not None and batch.hand_id is not None
    session = batch.session
    if session is not None and stored is not None:
        index = last.get(session)
        if index is not None:
            latest = out[index].hand_id
        else:
            found = previous(session)
            latest = found[0] if found is not None else None
        rows = stored(batch.hand_id) if latest == batch.hand_id else None
        if rows:
            whole[len(out)] = [*rows, *batch.events]
            last[session] = len(out)
    out.append(batch)


def _came_as_carried(batch: Batch, out: list[Batch], placed: dict[str, int],
                     stored: Stored | None) -> None:
    """Refuse ``batch``, a hand whose ``carry_over`` in a file records, when its amount is
    not what the hand it names carried (see :func:`link`); that hand is looked for among the
    batches before it (``out``, ``placed``) and then in the ledger (``stored``); refused too
    when it is in neither (chips that would come from nowhere: the file that holds it is
    imported first). Nothing is checked without ``stored``."""
    assert batch.events is not None
    come = batch.events[1]
    other = come.other_hand
    if other is None:
        return
    if other in placed:
        events = out[placed[other]].events
    else:
        events = stored(other) if stored is not None else None
    if not events:
        if stored is None:
            return
        line = batch.lines[1] if batch.lines and len(batch.lines) > 1 else batch.line
        raise MalformedInput(
            f"its carry_over in records {come.amount} chip(s) from hand {other}, which neither "
            "the file nor the ledger holds (RULES.md §2.2, §3.8, §7.1): the chips would come from "
            f"nowhere; import the file that holds hand {other} first; nothing written",
            hand=batch.hand_id, line=line)
    recorded = sum(e.amount for e in events if e.type == "carry_over" and e.direction == "out")
    carried = recorded or unclaimed(events)
    if carried != come.amount:
        line = batch.lines[1] if batch.lines and len(batch.lines) > 1 else batch.line
        raise MalformedInput(
            f"its carry_over in records {come.amount} chip(s) from hand {other}, which carried "
            f"{carried} to the session's next hand ({_sections_of(events)}): the chips "
            "would not add up; nothing written", hand=batch.hand_id, line=line)


def _prior(
    out: list[Batch], index: int | None, previous: Previous, session: str
) -> tuple[str, list[Any], int | None] | None:
    if index is not None:
        events, hand = out[index].events, out[index].hand_id
        assert hand is not None and events is not None
        return hand, events, index
    found = previous(session)
    if found is None:
        return None
    return found[0], found[1], None


def taken_by(ledger: Any, hand: str, known: Mapping[str, str] | None = None) -> str | None:
    """The hand of the ledger whose ``carry_over`` in names ``hand``: the one that took the
    chips ``hand`` carried out or passed on (RULES.md §7.1); None when none did. ``known``:
    :func:`takers` of the ledger, read once for a write of many hands (no query)."""
    if known is not None:
        return known.get(hand)
    rows = ledger.query(
        "SELECT hand_id FROM events WHERE type = 'carry_over' AND hand_id <> $1"
        " AND json_extract_string(payload, '$.direction') = 'in'"
        " AND json_extract_string(payload, '$.other_hand') = $1 ORDER BY position LIMIT 1",
        [hand])
    return rows[0][0] if rows else None


def takers(ledger: Any) -> dict[str, str]:
    """{hand: :func:`taken_by` of it} of every hand some ``carry_over`` in of the ledger
    names, read with one query: a write of many hands (``void HAND HAND ...``) looks each up
    there. A void appends no ``carry_over``, so the voids of the write leave it true."""
    return dict(ledger.query(
        "SELECT other, arg_min(hand_id, position) FROM (SELECT hand_id, position,"
        " json_extract_string(payload, '$.other_hand') AS other FROM events"
        " WHERE type = 'carry_over' AND json_extract_string(payload, '$.direction') = 'in')"
        " WHERE hand_id <> other GROUP BY other"))


def leaves(hand: Any) -> int:
    """The chips the replayed hand ``hand`` (:class:`replay.hand_replay.HandReplay`) leaves to the
    session's next hand by its own events, whatever a ``carry_over`` (out) records: what the
    rules carry less any the table paid out, or, voided or cut short, the chips carried into
    it (RULES.md §2.2, §3.8, §7.1; :func:`replay.compare.carried_on`)."""
    from replay.compare import carried_on

    return carried_on(hand.result, hand.recorded, hand.rake)


def later_hand(ledger: Any, hand: str, session: str | None) -> str | None:
    """The hand that took the chips ``hand`` carried (:func:`taken_by`), else the session's
    first hand started after it, which would have taken them as it started; None when
    neither is in the ledger (the session's next hand takes what ``hand`` leaves then)."""
    taker = taken_by(ledger, hand)
    if taker is not None or session is None:
        return taker
    hands = ledger.streams(kind="hand", session=session)
    after = hands[hands.index(hand) + 1:] if hand in hands else []
    return after[0] if after else None


def carry_kept(ledger: Any, hand: str, session: str | None, before: Any, after: Any,
               doing: str, *, way: bool = False) -> None:
    """Refuse a change of ``hand`` (``doing``: ``"correcting hand h1"``) from ``before`` to
    ``after`` (:class:`replay.hand_replay.HandReplay` each) that changes the chips it leaves to the
    session's next hand (:func:`leaves`) once a later hand of the session has started: that
    hand took what it carried as it started (its ``carry_over`` in), or started without
    anything from it, and neither can change (RULES.md §2.2, §3.8, §7.1), so the chips would be
    counted twice or lost to the books.

    ``way``: the refusal names the way through that the ledger takes (a correction or an
    undo): the void of the hand in one write with every hand that took its chips (the void of
    a later hand alone passes them on and keeps them out of reach, RULES.md §7.1), or, none
    taken, of the hand alone, and the hands recorded again as new hands.

    Raises:
        IllegalAction: naming both amounts and the later hand (nothing written).
    """
    was, now = leaves(before), leaves(after)
    if was == now:
        return
    later = later_hand(ledger, hand, session)
    if later is None:
        return
    took = (f"hand {later} took the {was} as it started" if was
            else f"hand {later}, the session's next hand, started without them")
    raise IllegalAction(
        f"{doing} changes the chips it carries to the session's next hand from {was} to "
        f"{now}, and {took} ({hand_sections(ledger, hand)}): the chips would be counted twice "
        f"or lost; nothing written{_void_through(ledger, hand) if way else ''}", hand=hand)


def carried_undo_refused(ledger: Any, hand: str, rows: Sequence[Any], last: Sequence[Any]
                         ) -> None:
    """Refuse the undo of ``last``, the last write of ``hand`` (its stream ``rows``), when it
    is the ``carry_over`` (out) written as the session's next hand started and took the chips
    ``hand`` carried: that hand holds them, and ``hand`` ended (an ended hand is not opened
    again). The refusal names the hand that took them and the way through: the void of
    ``hand`` with every hand that took them, in one write (:func:`taker_chain`), then the
    hands recorded again.

    Raises:
        IllegalAction: naming the chips, the hand that took them and what to do.
    """
    out = next((r for r in last if r.type == "carry_over" and r.event.direction == "out"),
               None)
    if out is None:
        return
    e = out.event
    taker = taken_by(ledger, hand) or e.other_hand
    raise IllegalAction(
        f"cannot undo the last thing appended to the hand, the record of the {e.amount} "
        f"chip(s) it carried to the session's next hand: hand {taker} took them as it started "
        f"({carry_sections(rows[0].event.options)}), and an undo does not take them back "
        f"from it; nothing written{_void_through(ledger, hand)}", hand=hand)


def hand_sections(ledger: Any, hand: str) -> str:
    """:func:`ledger.model.carry_rules.carry_sections` of the stored hand ``hand``."""
    return _sections_of([r.event for r in ledger.read(hand, upto=1)])


def _sections_of(events: Sequence[Any]) -> str:
    """:func:`ledger.model.carry_rules.carry_sections` of the hand ``events`` (its stream,
    ``hand_started`` first); either rule's sections when it does not start so."""
    if events and events[0].type == "hand_started":
        return carry_sections(events[0].options)
    return EITHER


def taker_chain(ledger: Any, hand: str) -> list[str]:
    """``hand`` and each later hand that took the chips it carried, followed while each
    passes them on (:func:`taken_by`; at most 50 hands): the hands whose void in one write
    gives every one of those chips back (RULES.md §7.1)."""
    chain = [hand]
    while len(chain) < 50 and (taker := taken_by(ledger, chain[-1])) is not None:
        chain.append(taker)
    return chain


def _void_through(ledger: Any, hand: str) -> str:
    """The way through :func:`carry_kept` names: ``void`` of ``hand`` with every hand that
    took the chips it carried (:func:`taken_by`, followed while each passes them on), in one
    write, then the hands recorded again."""
    chain = taker_chain(ledger, hand)
    if len(chain) == 1:
        return (f"; void it instead (`handledger void {shell_arg(hand)} --reason … --by …`) and "
                "record it "
                "again as a new hand")
    others = ", ".join(chain[1:])
    return (f"; void it with hand{'s' if len(chain) > 2 else ''} {others}, which took its "
            f"chips, in one write (`handledger void {' '.join(map(shell_arg, chain))} --reason … "
            "--by …`) and "
            "record them again as new hands (the void of a later hand alone passes the chips "
            "on)")



def still_carried(ledger: Any, session: str, in_play: Sequence[str] = (),
                  rules: set[str] | None = None) -> int:
    """The chips of ``session`` carried to a next hand that no ended hand holds yet (RULES.md
    §2.2, §3.8, §7.1): what its last hand leaves for the next (:func:`unclaimed`) and what each of
    its hands ``in_play`` (recorded live, not yet ended) brought in, in their pot and paid
    when they end. The players' nets of the session sum to minus these until then.
    ``rules``, when given, gets the RULES.md sections of the rule that carried each part, by
    the options of the hand that carried it (:func:`ledger.model.carry_rules.carry_sections`;
    chips a voided hand passes on, and those a hand in play brought in, by the hand they came
    from)."""
    hands = ledger.streams(kind="hand", session=session)
    if not hands:
        return 0
    chips = 0
    last = [row.event for row in ledger.read(hands[-1], upto=2)]
    if may_pass_on(last):
        events = [row.event for row in ledger.read(hands[-1])]
        left, passed = _leaves(events)
        chips += left
        if left and rules is not None:
            rules.add(hand_sections(ledger, events[1].other_hand) if passed
                      else _sections_of(events))
    for hand in in_play:
        events = [row.event for row in ledger.read(hand, upto=2)]
        if brought_in(events):
            chips += events[1].amount
            if rules is not None:
                rules.add(hand_sections(ledger, events[1].other_hand))
    return chips


def left_to_none(ledger: Any, session: str) -> LeftToNone | None:
    """The chips the session's last hand leaves to a next hand that the session does not hold
    yet (RULES.md §2.2, §3.8, §7.1; :func:`unclaimed`), as :class:`LeftToNone`; None when it leaves
    none. Until a hand takes them, the players' nets of the session sum to minus these
    chips."""
    hands = ledger.streams(kind="hand", session=session)
    if not hands:
        return None
    last = hands[-1]
    if not may_pass_on([row.event for row in ledger.read(last, upto=2)]):
        return None
    events = [row.event for row in ledger.read(last)]
    chips, passed = _leaves(events)
    if not chips:
        return None
    if not passed:
        return LeftToNone(last, chips, None, sections=_sections_of(events))
    came = events[1].other_hand
    from replay.amendments import split_stream

    came_voided = bool(split_stream([row.event for row in ledger.read(came)])[2])
    return LeftToNone(last, chips, came, passed == "voided", came_voided,
                      hand_sections(ledger, came))


def left_to_none_text(session: str, left: LeftToNone) -> str:
    """What :func:`left_to_none` found, in words: the hand, its chips and where they came
    from, for a refusal to go on with (``session co: hand c1 carries 20 chips …``)."""
    hand, chips, came = left.hand, left.chips, left.came
    many = f"{chips} chip{'s' if chips != 1 else ''}"
    held = (f"hand {hand}, voided or cut short, passes on the {many} hand {came} carried "
            "into it" if came else f"hand {hand} carries {many}")
    return (f"session {session}: {held} to the session's next hand, and no later hand took "
            f"them ({left.sections})")


def left_to_none_ways(left: LeftToNone, closed: bool = False) -> str:
    """The ways forward from chips :func:`left_to_none` found: deal the session's next hand,
    which takes them as dead money, or (chips the hand carries itself) correct or void it;
    of a ``closed`` session, which deals no more hands, the correction or void with
    ``--closed``. Chips a voided hand passes on: the ``undo`` of its void (the hand takes
    them again, as before it), after which it and the hand they came from may be voided in
    one write (RULES.md §7.1: each void then drops its ``carry_over``, and the chips go back
    to the players of the hand they came from), unless that hand is voided itself (it passed
    them on: the undo alone); a hand whose log stops short is voided with it in one write.
    Every way named is one the ledger takes: appended events only."""
    hand, came, voided, came_voided = left.hand, left.came, left.voided, left.came_voided
    flag = " --closed" if closed else ""
    fix = (f"correct hand {hand} (`handledger correct {shell_arg(hand)} …{flag} --reason … --by "
           "…`) or "
           f"void it (`handledger void {shell_arg(hand)}{flag} --reason … --by …`)")
    both = f"`handledger void {shell_arg(came)} {shell_arg(hand)}{flag} --reason … --by …`"
    if came and voided:
        undo = (f"undo the void of hand {hand} (`handledger undo {shell_arg(hand)}{flag} --by "
                "…`): it "
                "takes them again")
        if not came_voided:  # voided before, hand came passed them on: its void stands
            undo += (f"; to take back hand {came} too, void both in one write after that undo "
                     f"({both})")
        if closed:
            return f"{undo}, as the session deals no more hands"
        return f"deal the session's next hand (it takes them as dead money), or {undo}"
    if came:  # its log stops short: voided with the hand the chips came from, they go back
        taken = f"void it with hand {came} in one write ({both})"
        if closed:
            return f"{taken}, as the session deals no more hands"
        return f"deal the session's next hand (it takes them as dead money), or {taken}"
    if closed:
        return f"{fix}, as the session deals no more hands"
    return f"deal the session's next hand (it takes them as dead money), or {fix}"
