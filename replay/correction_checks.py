"""What a correction, a void or an undo of a hand must not do, checked before it is appended:
take back chips a later hand took or pass on chips no hand will take (RULES.md §2.2, §3.8, §7.1),
put a hand back in play beside a book entry or another hand of its players (table stakes,
RULES.md §1.1), or, in a closed session, move the books settled up at the close (README
"sessions and the books") without ``--closed``.

Each check returns nothing or raises :class:`engine.errors.IllegalAction` naming what it
refuses; nothing is written then.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from ledger.model.shell import shell_arg
from ledger.store.streams import hands_seating
from replay.fold import HandReplay, fold_stream, replay_events
from replay.whatif import paid_net

if TYPE_CHECKING:
    from replay.compare import Discrepancy


def carried_taken(ledger: Any, hand: str, doing: str, together: Collection[str] = (),
                  *, voiding: bool = False, takers: Mapping[str, str] | None = None) -> bool:
    """Refuse a void of ``hand`` (or the undo of its void) once a later hand took the chips it
    carried out or passed on (RULES.md §2.2, §3.8, §7.1): ``doing`` would give them back to the
    players while that hand holds them. A hand of ``together`` (voided in the same write,
    before ``hand``: :mod:`replay.voiding` voids the latest first) took them for nobody: its
    void drops their ``carry_over`` in; what it passes on in turn is followed to the hand
    that took that. True when the chips went to hands of ``together`` alone (the void of
    ``hand`` then drops its ``carry_over`` out), False when no hand took any.

    ``voiding``: the void of ``hand`` (not an undo): its refusal names the way through,
    ``void`` of the hand and every hand that took the chips after it, in one write.
    ``takers``: :func:`replay.carry.takers` of the ledger, read once for the write.

    Raises:
        IllegalAction: naming the first hand not of ``together`` that took them (voided
            before the write, it passes them on: the two are voided in one write).
    """
    from replay.carry import hand_sections, taken_by, taker_chain

    later = taken_by(ledger, hand, takers)
    taken = later is not None
    while later is not None and later in together:
        later = taken_by(ledger, later, takers)
    if later is None:
        return taken
    from replay.amendments import split_stream

    sections = hand_sections(ledger, hand)
    if split_stream([r.event for r in ledger.read(later)])[2]:  # voided before this write
        raise IllegalAction(
            f"hand {later}, voided before, passes on the chips this hand carried to the "
            f"session's next hand ({sections}), and {doing}: the chips would be "
            f"counted twice; nothing written; void both in one write (undo the void of hand "
            f"{later} first)", hand=hand)
    way = ""
    if voiding:  # the takers voided with it give the chips to nobody: the way through
        chain = taker_chain(ledger, hand)
        voids = " ".join(map(shell_arg, chain))
        way = f"; void them together in one write (`handledger void {voids}`)"
    raise IllegalAction(
        f"hand {later} took the chips this hand carried to the session's next hand "
        f"({sections}), and {doing}: the chips would be counted twice; nothing "
        f"written{way}", hand=hand)


def carried_in_dropped(rows: Sequence[Any], void: Sequence[Any]) -> None:
    """Refuse the undo of ``void`` (the rows of a void of the hand stream ``rows``) when it
    dropped a ``carry_over`` of chips carried between the hand and one voided in the same
    write (:func:`replay.corrections.void_checked`): dropped in, that hand's void gave them
    back to its players, and back in play this hand would hold them too; dropped out, this
    void gave them back, and back in play the hand would carry them to one that takes none
    (RULES.md §7.1). Neither undo can go first, so the two voids stand.

    Raises:
        IllegalAction: naming the chips and the hand they came from.
    """
    dropped = {c.seq for r in void if r.type == "correction" for c in r.event.changes
               if c.op == "delete"}
    for row in rows:
        if row.type != "carry_over" or row.seq not in dropped:
            continue
        chips, other = row.event.amount, row.event.other_hand
        if row.event.direction == "in":
            raise IllegalAction(
                f"the void dropped the {chips} chip(s) carried into the hand from hand {other}, "
                f"voided with it, whose void gave them back to its players (RULES.md §7.1): "
                f"back in play, the hand would count them twice; {_BOTH}")
        raise IllegalAction(
            f"the void gave back to its players the {chips} chip(s) the hand carried to hand "
            f"{other}, voided with it, whose void dropped them (RULES.md §7.1): back in play, "
            f"the hand would carry them to a hand that takes none; {_BOTH}")


_BOTH = ("one undo takes back one hand's void, and the other's is refused likewise: the two "
         "voids stand; nothing written")


def passed_on_reach(ledger: Any, hand: str, session: str | None, voided: HandReplay) -> None:
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
        came = [r.event.other_hand for r in ledger.read(hand)
                if r.type == "carry_over" and r.event.direction == "in"]
        way = (f"; void hand {came[0]}, whose chips they are, with it in one write "
               f"(`handledger void {shell_arg(came[0])} {shell_arg(hand)}`)" if came else "")
        raise IllegalAction(
            f"voided, the hand would pass the {chips} chip(s) carried into it on to the "
            f"session's next hand (RULES.md §7.1), but hand {later} started after it without "
            f"them and takes nothing more: the chips would be lost; nothing written{way}",
            hand=hand)


def no_entries_since(ledger: Any, session: str, hand: HandReplay, position: int) -> None:
    """Refuse to put ``hand`` back in play when a player seated in it bought in or cashed
    out of ``session`` after ledger ``position`` (while it was voided): chips come on or off
    the table only between hands (RULES.md §1.1). Each entry counts at its place among the
    hands (:mod:`ledger.audit.placing`): a buy-in recorded since as made before a hand stored
    before ``position`` (``buyin --before HAND``, that hand itself too) is not one since.

    Raises:
        IllegalAction: naming the player and the entry.
    """
    from ledger.audit.load import session_rows

    seated = set(hand.result.players)
    for row in session_rows(ledger, sessions=[session], types=["buy_in", "cash_out"],
                            after=position):
        if row.position > position and row.event.player in seated:
            what = "cashed out" if row.event.type == "cash_out" else "bought in"
            raise IllegalAction(f"{row.event.player} {what} of session {session} since, and "
                                "the hand would be in play again (chips come on or off the "
                                "table only between hands, RULES.md §1.1)")


def no_buy_in_retracted_since(ledger: Any, session: str, hand: str, position: int,
                              replayed: Any) -> None:
    """Refuse to count ``hand`` again (an ``undo`` of its void at ledger ``position``;
    ``replayed``: its :class:`replay.hand_replay.HandReplay` then) when a buy-in of
    ``session`` retracted since was all a player it seats bought there before it, or left
    him fewer chips than it starts him with: it would start him with chips nobody bought,
    which ``entry retract`` refuses while a hand seats him (RULES.md §1.1; the same rules,
    :func:`replay.sessions.amending.hands_left_unbought` and
    :func:`replay.sessions.seated_chips.unbought_again`, the hand counted).

    Raises:
        IllegalAction: naming the first such retraction (session, entry, player, chips).
    """
    from replay.sessions import session_state
    from replay.sessions.amending import hands_left_unbought
    from replay.sessions.seated_chips import unbought_again

    state = session_state(ledger, session)
    for (seq,) in ledger.query(
            "SELECT CAST(payload->>'seq' AS BIGINT) FROM events WHERE stream = $1 AND type ="
            " 'entry_corrected' AND position > $2 AND payload->>'replacement' IS NULL ORDER BY"
            " position", [f"session:{session}", position]):
        entry = state.entries.get(seq)
        if entry is None or entry.type != "buy_in" or seq not in state.retracted:
            continue
        chips = state.amended.get(seq, entry).chips
        if hand not in hands_left_unbought(ledger, session, state, seq, counting=hand):
            if (said := unbought_again(ledger, session, state, seq, hand, replayed)) is None:
                continue
            raise IllegalAction(
                f"entry {seq} of session {session} (buy-in of {entry.player}, {chips} chips) "
                f"is retracted since: {said} (RULES.md §1.1), as `entry retract` refuses "
                f"while a hand seats {entry.player}; nothing written; the void stands: a "
                "retraction is final (`entry amend` does not bring it back) and a buy-in "
                "recorded now comes after the hand (record the buy-in again, then the hand as "
                "a new one)")
        raise IllegalAction(
            f"entry {seq} of session {session} (buy-in of {entry.player}, {chips} chips) is "
            f"retracted since, and it was all {entry.player} bought there before this hand: "
            f"the hand would start {entry.player} with chips nobody bought (RULES.md §1.1), "
            f"as `entry retract` refuses while a hand seats {entry.player}; nothing written; "
            "the void stands: a retraction is final (`entry amend` does not bring it back) "
            "and a buy-in recorded now comes after the hand (record the buy-in again, then "
            "the hand as a new one)")


def no_other_hand_in_play(ledger: Any, hand: str, session: str | None,
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


def closed_books(ledger: Any, hand: str, session: str | None, after: HandReplay) -> None:
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
    :func:`ledger.audit.player_balances.rake_taken` sums them)."""
    from ledger.audit.rake_count import counted_rake

    return counted_rake(replay.discrepancies)


def closed_moves(ledger: Any, hand: str, session: str | None, before: HandReplay,
                  after: HandReplay, doing: str) -> None:
    """Refuse the change ``doing`` (``"correcting hand h2"``) of ``hand`` from ``before`` to
    ``after`` when its session is closed and it moves a player's net (the books' net,
    :func:`replay.whatif.paid_net`) or the rake the books count (:func:`taken_as_rake`, the
    house's): the session's books were settled up at the close (README: sessions and the
    books), so `--closed` must say it is meant, as for a void (:func:`closed_void`).

    Raises:
        IllegalAction: naming the hand, the session, each player's net change and the
            rake's.
    """
    what = _books_moved(before, after)
    if not what:
        return
    from replay.sessions import session_state

    if session is None or not session_state(ledger, session).closed:
        return
    raise IllegalAction(f"session {session} is closed and {doing} moves {' and '.join(what)}: "
                        "nothing written; --closed records it anyway", hand=hand)


def closed_void(ledger: Any, hand: str, session: str | None, events: list[Any],
                 after: HandReplay, doing: str | None = None) -> None:
    """Refuse the void of ``hand`` (``after``: the voided hand), or the undo ``doing`` of a
    void or correction (``after``: the hand without it), when its session is closed and it
    moves a player's net (the books' net, :func:`replay.whatif.paid_net`) or the rake the
    books count (:func:`taken_as_rake`, the house's): the session's books were audited and
    settled up at the close (README: sessions and the books), so `--closed` must say it is
    meant, as :func:`closed_books` for a correction. A hand whose stream did not replay
    moved no chips in the books: its void goes in.

    Raises:
        IllegalAction: naming the hand, the session, each player's net change and the
            rake's (``its rake (6 to 0 chips)``).
    """
    from replay.sessions import session_state

    if session is None or not session_state(ledger, session).closed:
        return
    try:
        was = replay_events(events)
    except IllegalAction:
        return
    if not (what := _books_moved(was, after)):
        return
    raise IllegalAction(
        f"session {session} is closed and {doing or f'voiding hand {hand}'} moves "
        f"{' and '.join(what)}: nothing written; --closed records it anyway", hand=hand)


def _books_moved(before: HandReplay, after: HandReplay) -> list[str]:
    """What a change from ``before`` to ``after`` moves in a closed session's books, worded
    for the refusal: each player's net change (:func:`replay.whatif.paid_net`) and the rake
    the books count (:func:`taken_as_rake`); empty when it moves neither."""
    was, now = paid_net(before), paid_net(after)
    moved = {p: now.get(p, 0) - n for p, n in was.items() if now.get(p, 0) != n}
    rake = (taken_as_rake(before), taken_as_rake(after))
    what = []
    if moved:
        what.append("its players' nets (" + ", ".join(f"{p} {n:+d}" for p, n in moved.items())
                    + ")")
    if rake[0] != rake[1]:
        what.append(f"its rake ({rake[0]} to {rake[1]} chips)")
    return what


def counted_elsewhere(ledger: Any, hand: str, started: Any) -> tuple[str, str] | None:
    """Another hand, not voided, that holds ``hand``'s events through ``hand again``'s
    links (a ``hand_started`` naming the hand it records again in its ``source``,
    :data:`ledger.model.events.AGAIN_OF`; ``started``: ``hand``'s), following the voided
    hands between: ``("copy", id)``, a hand that records ``hand`` again; ``("original",
    id)``, the hand ``hand`` records again; ``("kin", id)``, another copy of that one.
    None when there is none: ``hand`` alone may count. A hand it records again that this
    ledger does not hold (a PHH export of the copy imported alone) counts nowhere here, and
    the walk stops there."""
    from ledger.model.errors import NotFound
    from ledger.model.events import AGAIN_OF
    from ledger.store.streams import hands_again_of
    from replay.amendments import split_stream

    def voided(other: str) -> bool:
        return bool(split_stream([r.event for r in ledger.read(other)])[2])

    def live_copy(top: str, seen: set[str]) -> str | None:
        todo = [top]
        while todo:
            for other in hands_again_of(ledger, todo.pop(0)):
                if other in seen:
                    continue
                seen.add(other)
                if not voided(other):
                    return other
                todo.append(other)
        return None

    seen = {hand}
    if (copy := live_copy(hand, seen)) is not None:
        return "copy", copy
    up, source = [], started.source or {}
    while isinstance(first := source.get(AGAIN_OF), str) and first not in seen:
        seen.add(first)
        try:
            rows = ledger.read(first)
        except NotFound:  # not in this ledger (imported without it): counted nowhere here
            break
        if not split_stream([r.event for r in rows])[2]:
            return "original", first
        up.append(first)
        source = rows[0].event.source or {}
    for first in up:
        if (kin := live_copy(first, seen)) is not None:
            return "kin", kin
    return None


def not_counted_twice(ledger: Any, hand: str, started: Any) -> None:
    """Refuse the undo of ``hand``'s void while its events count in another hand not voided
    (:func:`counted_elsewhere`): undone, the void would count them twice.

    Raises:
        IllegalAction: naming the other hand and its void as the way through.
    """
    found = counted_elsewhere(ledger, hand, started)
    if found is None:
        return
    how, other = found
    said = {"copy": f"it is recorded again as hand {other}",
            "original": f"it records hand {other} again, which is not voided",
            "kin": f"hand {other} records the same hand as {hand} and is not voided"}[how]
    raise IllegalAction(
        f"{said}: the two would count it twice (void {other} first: `handledger void "
        f"{shell_arg(other)} --reason … --by …`)", hand=hand)
