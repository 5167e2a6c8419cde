"""One action recorded live (``handledger act``): checked by the engine against the hand as it
stands (corrections applied), and against what a hand recorded live may not take though a file
may (:func:`_live_rules`), then appended; an illegal one is refused with what is legal now, and
nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.betting import bet_word
from engine.declare.order import still_to_declare
from engine.errors import IllegalAction, NotAnAction
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.carry_rules import carry_sections
from ledger.model.errors import LedgerError
from replay.amendments import effective_events
from replay.board_rules import whole_street
from replay.live.declaring import declare_rules
from replay.live.state import current_rows, legal_now, words_now
from replay.payout_rules import (
    above_zero,
    not_carried,
    not_folded,
    over_the_pot,
    paid_to_somebody,
    rake_not_carried,
    rake_within_the_pots,
    raked_pay_within_the_pots,
    within_reach,
    within_uncalled_bet,
)
from replay.show_rules import shown_stays
from replay.typed import as_typed, reason_as_typed


def _live_rules(state: HandState, event: Any, events: Sequence[Any] = ()) -> None:
    """What a hand recorded live may not take, though a history read from a file may: nothing
    after its end (that is a correction), a payout or a show before the betting is over
    (or, in the declare phase, before every player has declared), a rake before it
    (:func:`_rake_refused`), a second show by a
    player who has shown, or his muck after it (:func:`replay.show_rules.shown_stays`;
    ``events``: the hand's stream as stored, to name the cards as shown), a payout of no
    chips, a payout to a player who folded, chips returned beyond the
    player's uncalled bet, a payout beyond what its
    player can win (the pots he is eligible for and his uncalled bet), a payout or a rake
    beyond the chips in the pot, payouts (and a rake, if any) that take another player's
    uncalled bet for the pots or chips the pot carries to the session's next hand, a plain
    payout after the rake beyond the pots less the rake (an uncalled bet is ``returned``:
    :func:`replay.payout_rules.raked_pay_within_the_pots`)
    (:mod:`replay.payout_rules`, :func:`_rake_rules`), a board
    deal of part of a street (:func:`replay.board_rules.whole_street`), a declaration in a
    cards-speak hand or a second one, a fold after declaring
    (:func:`replay.live.declaring.declare_rules`: naming the way forward); and, checked once
    applied, an end that leaves a pot paid to nobody
    (:func:`replay.payout_rules.paid_to_somebody`).

    Raises:
        IllegalAction: naming the rule and what to do instead.
    """
    if state.status == "voided":
        raise IllegalAction("the hand is voided: it takes no action (`handledger undo` takes "
                            "the void back)")
    if state.status != "open":  # an ended hand is never opened again: undo refuses hand_ended
        raise IllegalAction(f"the hand is {state.status}: a change now is a correction "
                            "(`handledger correct`)")
    if event.type == "recorded_payout" and state.phase != "showdown":
        raise IllegalAction(f"a payout comes at the showdown, after the betting "
                            f"(phase {state.phase_said} now)")
    if event.type == "recorded_rake":
        refused = _rake_refused(state)
        if refused:
            raise IllegalAction(refused)
    if event.type == "reveal" and state.phase == "draw":
        raise IllegalAction("cards are shown after the draw: its discards change the hand")
    if event.type == "reveal" and state.phase == "declare":
        raise IllegalAction(_before_declared(state))
    if event.type == "reveal" and not _betting_over(state):
        raise IllegalAction(f"cards are shown once the betting is over (phase {state.phase_said} "
                            "now)")
    declare_rules(state, event, events)
    if event.type in ("reveal", "muck") and event.player in state.cards.shown:
        shown_stays(state, event, effective_events(events)[0] if events else ())
    if event.type == "recorded_payout":
        above_zero(event)
        not_folded(state, event)
        result = _settled(state)
        raked_pay_within_the_pots(state, event, result)
        over_the_pot(state, event, result)
        within_uncalled_bet(state, event, result)
        within_reach(state, event, result)
        rake_within_the_pots(state, state.rake or 0, result, event)
        not_carried(state, event, result)
    if event.type == "recorded_rake":
        _rake_rules(state, event)
    if event.type == "cards_dealt" and event.player is None:
        whole_street(state, event)


def _rake_refused(state: HandState) -> str | None:
    """Why the rake may not be taken now (None: it may). It is taken once the betting is over
    and every card is dealt: at the showdown, or while a declare hand's players declare (the
    declarations decide who wins the pots, never what they hold, and the rake comes out of
    the pots before they are split, RULES.md §3.2-3.5), unless a betting round follows the
    declarations (§3.4) or the hand's rules may carry a pot or an odd chip to the session's
    next hand, which only the declarations decide (§2.2, §3.8; a rake never takes carried
    chips, :func:`replay.payout_rules.rake_not_carried`)."""
    if state.phase == "showdown":
        return None
    head = (f"the rake is taken from the pot once the betting is over: at the showdown, or "
            f"while the players declare when no betting round follows the declarations "
            f"(phase {state.phase_said} now")
    options = state.started.options
    declare = options.declare
    if state.phase != "declare" or declare is None:
        return head + ")"
    if declare.bet_after_declare:
        return head + ", and a betting round follows the declarations)"
    if declare.no_eligible_winner == "carry_over" or (
            options.split.odd_chip_tie_order == "carry_to_next_hand"):
        return (head + f", and what the pot carries to the session's next hand is known at "
                f"the showdown, {carry_sections(options)})")
    return None


def _betting_over(state: HandState) -> bool:
    """Whether a player may show now: at the showdown, or while the rest of the cards are
    dealt with at most one player able to bet (the others all-in). Never during a betting
    round, a draw (the cards shown would change), or a deal between betting rounds."""
    return state.phase == "showdown" or (state.phase == "deal" and len(state.can_bet()) < 2)


def _before_declared(state: HandState) -> str:
    """Why a show is refused in the declare phase (RULES.md §3.2-3.4): the players still to
    declare, in the order they must under the in-turn method, else in seat order
    (:func:`engine.declare.order.still_to_declare`, as the next step names them,
    :mod:`replay.nextstep`); with ``bet_after_declare`` the last
    betting round follows the declarations."""
    waiting = still_to_declare(state)
    options = state.started.options.declare
    then = (" and the betting round after the declarations is over"
            if options is not None and options.bet_after_declare else "")
    return (f"cards are shown once every player has declared{then} (still to declare: "
            f"{', '.join(waiting)})")


def _settled(state: HandState) -> Any:
    """The rules' :class:`engine.settle.HandResult` of ``state`` (loaded here: only a payout,
    a rake or an end settles a live hand)."""
    from engine.settle import settle

    return settle(state)


def _rake_rules(state: HandState, event: ev.RecordedRake) -> None:
    """Refuse a rake (``rake AMOUNT``, FORMATS.md §1: PHH's ``rake``) that is not the one
    rake of the hand, that takes it with the payouts recorded so far above the chips in
    the pot, or that takes more than the pots hold beside what the payouts took from them:
    an uncalled bet is returned, never raked (RULES.md §1.2-1.4,
    :func:`replay.payout_rules.rake_within_the_pots`). One rake a hand, never summed: a line
    given twice is a mistake caught, and a rake to put right is taken back with ``undo`` and
    recorded again.

    Raises:
        IllegalAction: ``"the hand already records a rake of 10 …"``, ``"a rake of 400 is
            more than the pot's 300 chips"`` (amounts as ``act`` takes them,
            :func:`replay.typed.as_typed`: ``"… the pot's 3.00"`` in a hand in cents); in a
            hand that returns an uncalled bet, the pots without it and the bet named apart
            (``"a rake of 14 is more than the pots: they hold 5 (Ann's uncalled bet of 8 is
            returned to Ann, it is in no pot; …)"``, RULES.md §1.4).
    """
    def a(chips: int) -> str:
        return as_typed(state, chips)

    if state.rake is not None:
        raise IllegalAction(f"the hand already records a rake of {a(state.rake)}: a hand "
                            "records one rake, the whole of what the table took (`handledger "
                            "undo` takes it back to record another)")
    pot = state.pot_total()
    paid = sum(p.amount for p in state.payouts)
    result = _settled(state)
    # an uncalled bet returned is in no pot: the pots' refusal names them without it
    if event.amount + paid > pot and not any(result.returned.values()):
        chips = "" if state.started.unit.decimals else " chips"
        if paid:
            raise IllegalAction(f"a rake of {a(event.amount)} is more than the "
                                f"{a(pot - paid)}{chips} of the pot's {a(pot)} not yet paid "
                                f"({a(paid)} paid)")
        raise IllegalAction(f"a rake of {a(event.amount)} is more than the pot's "
                            f"{a(pot)}{chips}")
    rake_within_the_pots(state, event.amount, result)
    rake_not_carried(state, event.amount, result)


def _closed_session(ledger: Any, hand: str, state: HandState, start: int, action: str
                    ) -> None:
    """Refuse an action in ``hand``, still in play, when its session has been closed since it
    started at ``start`` (its first row's position; a session closed with a hand in play,
    README "sessions and the books"): its books were settled up at the close, so ``--closed``
    must say it is meant, as for ``void``. One query over the rows past the hand's start (a
    live hand's session was open when it started, so a closing comes after it).

    Raises:
        IllegalAction: naming the session, the entry that closed it and the hand.
    """
    session = state.started.session
    if session is None:
        return
    # one query over the rows past the hand's start, in place (the hot path of `act`)
    closing = ledger.query(
        "SELECT seq FROM events WHERE position > $1 AND session = $2 AND type ="
        " 'session_closed' ORDER BY position LIMIT 1", [start, session])
    if closing:
        raise IllegalAction(
            f"session {session} is closed (entry {closing[0][0]}) and hand {hand} is still in "
            "play: an action now moves its players' nets in books settled up; nothing "
            "written; --closed records it anyway (then end the hand, or void it with --closed)",
            hand=hand, action=action)


@dataclass(frozen=True)
class Acted:
    """An action appended: its seq, the event, and the hand's state after it; ``names``, the
    ledger's platform players as the reads name them (id → name,
    :func:`ledger.store.streams.platform_names`), read once for the action."""

    seq: int
    event: Any
    state: HandState
    names: dict[str, str] = field(default_factory=dict)
    #: an end's payouts that differ from the rules' award, each in a sentence
    #: (:meth:`replay.compare.Discrepancy.sentence`), as ``state`` and ``replay`` name them
    differences: tuple[str, ...] = ()
    #: what the rules accepted in this action that the host should know, each in a sentence,
    #: as ``show`` and ``replay`` note it on the hand (a raise below the minimum that covers
    #: every opponent, RULES.md §1.7; a stud card dealt from the discards or as the community
    #: card, §4.1), and a raise typed to all a player has recorded as a call
    notes: tuple[str, ...] = ()


def act(ledger: Any, hand: str, action: str, *, closed: bool = False) -> Acted:
    """Check ``action`` (PHH notation, ``pay PLAYER AMOUNT``, ``returned PLAYER AMOUNT``,
    ``rake AMOUNT`` or ``end``; :func:`replay.action_text.parse_action`, a player known by a
    platform id named as the reads show him too) against the hand as it stands, then append
    it, with the stream's last seq as the expected one (a concurrent
    append is refused).
    ``closed``: go in though the hand's session is closed (:func:`_closed_session`).

    Raises:
        LedgerError: ``closed`` given for a hand of a session that is open
            (:func:`replay.sessions.state.closed_flag_on_hand`); nothing is written.
        IllegalAction: not legal now (naming what is legal), or the hand is in play in a
            closed session without ``closed``; nothing is written. Its amounts are written
            as the hand's actions take them (:func:`replay.typed.reason_as_typed`: ``"raise
            to 3.00 is below the minimum 4.00"`` in a hand kept in cents).
    """
    from replay.action_text import parse_action

    state, rows = current_rows(ledger, hand)
    last = len(rows)
    if closed:  # refused on a hand of an open session, as the books' commands refuse it
        from ledger.model.errors import quoted
        from ledger.model.shell import shell_arg
        from replay.sessions.state import closed_flag_on_hand

        closed_flag_on_hand(ledger, [state.started.session],
                            f"act {shell_arg(hand)} {quoted(action)} --closed")
    if not closed and state.status == "open":
        _closed_session(ledger, hand, state, rows[0].position, action)
    names = _platform_names(ledger)
    try:
        event = parse_action(state, action, names)
        _live_rules(state, event, [r.event for r in rows])
        said = _recorded_as_a_call(state, event, action)
        typed = _typed_note(state, event)
        noted = len(state.notes)
        state.apply(event)
        if event.type == "hand_ended":
            paid_to_somebody(state, [r.event for r in rows])
    except IllegalAction as exc:  # the engine's chips as the host types them, then what now
        # what now: the hand as stored, as `state` says it (the refused action may have
        # changed the state it was tried on before the engine refused it: a deal's phase);
        # none after a refused end (its refusal says what to record first)
        now = ""
        if state.status == "open":
            from replay.fold import fold_stream

            stored = fold_stream([r.event for r in rows])[0]
            now = f"; now: {legal_now(stored)}"
            # text that is no action: the words the round takes, as the amounts name them
            if isinstance(exc, NotAnAction) and (words := words_now(stored)) is not None:
                now += f" ({words})"
        said = reason_as_typed(exc, state.started.unit.decimals)
        raise IllegalAction(f"{said}{now}", hand=hand, action=action) from None
    ledger.append(hand, [event], hand_id=hand, expected_seq=last)
    differences = _paid_otherwise(state) if event.type == "hand_ended" else ()
    return Acted(last + 1, event, state, names, differences,
                 (*said, *map(typed, state.notes[noted:])))


def _typed_note(state: HandState, event: Any) -> Callable[[str], str]:
    """``note -> note`` with the amounts of a raise below the minimum that covers every
    opponent (the engine's note, in chips: ``"… to 300 is below the minimum 400 …"``,
    RULES.md §1.7) written as the hand's actions type them (``"… to 3.00 is below the
    minimum 4.00 …"`` in a hand kept in cents, :func:`replay.typed.as_typed`); the note
    unchanged in a hand of whole chips or for any other action. ``state``: before it."""
    if not state.started.unit.decimals or event.type != "bet_raise" or state.phase != "bet":
        return str
    least = state.limits(event.player).min_to
    if least is None:
        return str
    to, most = event.to, least

    def typed(note: str) -> str:
        return note.replace(f" to {to} is below the minimum {most} ",
                            f" to {as_typed(state, to)} is below the minimum "
                            f"{as_typed(state, most)} ", 1)
    return typed


def _recorded_as_a_call(state: HandState, event: Any, action: str) -> tuple[str, ...]:
    """The note of a bet or raise (``cbr``) typed to all the player has that raises nothing,
    so that the hand records it as the all-in call it is (:func:`engine.notation.to_event`:
    the same chips, but not what the host typed): ``"A's raise to 100 is all A has and
    raises nothing: recorded as a call"``, or, short of the bet, ``"… is all A has, short
    of the bet of 100: recorded as a call for less (all-in)"`` (RULES.md §1.1); amounts as
    the hand's actions are typed. Nothing for any other action. ``state``: before it."""
    words = action.split(" #", 1)[0].split()
    if (event.type != "all_in" or len(words) != 3 or words[1] != "cbr"
            or state.phase != "bet" or event.to > state.rnd.current):
        return ()
    who, to = event.player, as_typed(state, event.to)
    said = f"{who}'s {bet_word(state)} to {to} is all {who} has"
    if event.to == state.rnd.current:
        return (f"{said} and raises nothing: recorded as a call",)
    return (f"{said}, short of the bet of {as_typed(state, state.rnd.current)}: recorded as a "
            "call for less (all-in)",)


def can_end(ledger: Any, hand: str) -> str | None:
    """Whether ``act HAND end`` would go in now: ``"now"`` when the hand, in play, is at its
    showdown with its pots paid as :func:`act` holds an end to (:func:`_live_rules`,
    :func:`replay.payout_rules.paid_to_somebody`), ``"paid"`` when it is at its showdown
    with a pot still to pay, None when it is not at its showdown (or not in play). Nothing
    is written."""
    from replay.action_text import parse_action

    state, rows = current_rows(ledger, hand)
    if state.status != "open" or state.phase != "showdown":
        return None
    try:
        event = parse_action(state, "end", {})
        _live_rules(state, event)
        state.apply(event)
        paid_to_somebody(state, [r.event for r in rows])
    except LedgerError:  # IllegalAction among them
        return "paid"
    return "now"


def _paid_otherwise(state: HandState) -> tuple[str, ...]:
    """The payouts of the hand ``state`` ends (folded already) that differ from what the
    rules award, in sentences (:attr:`replay.hand_replay.HandReplay.paid_otherwise`, what
    ``correct`` and ``undo`` warn of too): recorded still, but said at once."""
    from replay.fold import replay_folded

    return replay_folded(state, state.started).paid_otherwise


def _platform_names(ledger: Any) -> dict[str, str]:
    """:func:`ledger.store.streams.platform_names` (imported here: ``act`` is the hot path)."""
    from ledger.store.streams import platform_names

    return platform_names(ledger)
