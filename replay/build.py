"""Turn parsed hands into the events the ledger stores, checking every event with the engine.

``events_from_phh`` reads a PHH hand's action strings one by one, decides with the engine what
each means now (``cc`` = check, call or all-in; ``cbr`` to the whole stack = all-in), applies
it, and returns the hand's events ending with the recorded payouts and ``hand_ended``. The
first illegal action raises :class:`ledger.model.errors.IllegalHand` naming file, line, hand and
action, and nothing of that hand is returned. ``check_events`` does the same for events that
arrive ready-made (JSON lines, PokerNow).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalAction
from engine.notation import to_event
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.errors import IllegalHand, LedgerError, MalformedInput

#: Events met before, by value (events are immutable: equal ones are shared, so that an
#: append serialises each once, :func:`ledger.store.chain.prepare_batch`); emptied when full.
_SHARED: dict[tuple[Any, ...], Any] = {}
_SHARED_MAX = 100_000


def shared(event: Any) -> Any:
    """The event met before that equals ``event`` (the same type and fields), else
    ``event``, kept for the next time."""
    key = (event.__class__, *[tuple(v) if v.__class__ is list else v
                              for v in event.__dict__.values()])
    try:
        found = _SHARED.get(key)
    except TypeError:  # a field that does not hash (a nested list): not shared
        return event
    if found is not None:
        return found
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    _SHARED[key] = event
    return event


#: The event of each action text that means the same event whatever the state of the hand
#: (:data:`_FIXED`), by the hand's players in seat order (``pN`` names the N-th): a fold,
#: hole cards dealt, a show, a discard, a declaration. Emptied when it holds too many.
_BY_TEXT: dict[tuple[str, ...], dict[str, Any]] = {}
_BY_TEXT_MAX = 100_000
_KEPT = [0]  # groups of players and texts kept in _BY_TEXT


def _fixed(event: Any) -> bool:
    """Whether ``event``, made by :func:`engine.notation.to_event` from an action text, is
    what that text makes in any state of a hand with the same players (not a check, call,
    bet, raise or bring-in, which depend on the bets; not board cards, whose run depends on
    the board)."""
    kind = event.type
    return kind in _FIXED or (kind == "cards_dealt" and event.player is not None)


_FIXED = frozenset({"fold", "reveal", "muck", "discard", "declaration"})


def _texts_of(players: tuple[str, ...]) -> dict[str, Any]:
    """The events met of the action texts of hands with ``players`` (:data:`_BY_TEXT`)."""
    texts = _BY_TEXT.get(players)
    if texts is None:
        texts = _BY_TEXT[players] = {}
        _KEPT[0] += 1
    return texts


def _remember(texts: dict[str, Any], text: str, event: Any) -> None:
    """Keep ``event`` as what ``text`` makes in ``texts`` (:func:`_texts_of`); every text
    is forgotten when :data:`_BY_TEXT_MAX` (groups and texts) are kept."""
    if _KEPT[0] >= _BY_TEXT_MAX:
        _BY_TEXT.clear()
        _KEPT[0] = 0
    texts[text] = event
    _KEPT[0] += 1


def events_from_phh(hand: Any) -> list[Any]:
    """Events of one :class:`ledger.formats.phh.read.PhhHand`: started, forced bets, actions,
    payouts (``winnings``, with the uncalled bets they leave out returned:
    :mod:`replay.phh_returns`; else what ``finishing_stacks`` imply), end (``incomplete`` when the
    file stops before the hand's end: its pots as they stand, every chip back).

    Raises:
        IllegalHand: an action the rules reject, or text that is not an action.
    """
    return phh_fold(hand)[0]


def phh_fold(hand: Any) -> tuple[list[Any], HandState]:
    """:func:`events_from_phh` and the engine's state after the last of them (the state
    :func:`replay.fold.fold` of those events gives).

    Raises:
        IllegalHand: as :func:`events_from_phh`.
    """
    started = hand.started
    where = {"file": hand.file, "hand": started.hand}
    try:
        state = HandState.start(started)
        out: list[Any] = [started]
        for forced in hand.forced:
            forced = shared(forced)
            state.apply(forced)
            out.append(forced)
    except IllegalAction as exc:
        raise IllegalHand(_scaled(exc.reason, started), line=hand.line, **where) from exc
    texts = _texts_of(tuple(state.players))
    for action in hand.actions:
        try:
            event = texts.get(action.text)
            if event is None:  # not met before, or not a fixed text: made in this state
                event = shared(to_event(state, action.text, decimals=started.unit.decimals,
                                        labels_first=True))  # pN is seat N (FORMATS.md §1)
                if _fixed(event):
                    _remember(texts, action.text, event)
            state.apply(event)
        except IllegalAction as exc:
            raise IllegalHand(_scaled(exc.reason, started), line=action.line,
                              action=hand.words(action), **where) from exc
        out.append(event)
    try:
        payouts = list(hand.payouts)
        if payouts:  # the uncalled bets its winnings leave out (FORMATS.md §1, RULES.md §1.4)
            from replay.phh_returns import left_out_returns

            payouts = [*left_out_returns(hand, state, payouts), *payouts]
        else:
            payouts = _from_finishing_stacks(hand, state)
        for payout in payouts:
            payout = shared(payout)
            state.apply(payout)
            out.append(payout)
        # a file that stops before the hand's end (after a betting round, say) is a hand cut
        # off: imported incomplete, its pots as they stand, every chip back (as a cut log)
        cut = state.status == "open" and state.phase != "showdown"
        end = _ENDED[cut]
        state.apply(end)
        out.append(end)
    except IllegalAction as exc:
        raise IllegalHand(_scaled(exc.reason, started), line=hand.line, **where) from exc
    if "_chip" in started.source:
        return _in_chips(hand, out)
    return out, state


def _in_chips(hand: Any, events: list[Any]) -> tuple[list[Any], HandState]:
    """The events of the PHH ``hand`` (its amounts money, as written) counted in the chips its
    ``_chip`` table says (FORMATS.md §1, our extension: ``minor_per_chip`` minor units of its
    currency, :func:`ledger.formats.phh.hand.check_chip`), as the ledger the hand was exported
    from counted it (:func:`replay.ingest.units.in_money` wrote them as money): the odd chips
    of a split are then that chip again. The table leaves ``source``: the hand's ``unit``
    holds it. Every amount converts exactly or the hand is refused, never rounded.

    Raises:
        LedgerError: an amount that is not a whole number of those chips (naming the file,
            the hand's line, the amount), or one :func:`replay.ingest.units.to_session`
            refuses.
    """
    from replay.ingest.units import NotWholeChips, SessionUnit, iso_decimals, to_session

    started = events[0]
    worth = started.source["_chip"]["minor_per_chip"]
    where = {"file": hand.file, "line": hand.line, "hand": started.hand}
    try:  # ``minor_per_chip``: minor units of the currency's ISO 4217 decimals
        currency = started.unit.currency
        out = to_session(events, SessionUnit(worth, currency, iso_decimals(currency)), "")
    except NotWholeChips as exc:
        from ledger.formats.phh.base import format_amount
        from replay.ingest.units import chip_minor

        written = format_amount(exc.minor // (chip_minor(started.unit) or 1),
                                started.unit.decimals)
        raise MalformedInput(
            f"_chip says a chip is {worth} minor units of {started.unit.currency}, but "
            f"{written} ({exc.minor} minor units) is "
            "not a whole number of such chips: nothing of the hand is imported (never "
            "rounded)", **where) from None
    except LedgerError as exc:
        raise exc.located(**where) from None
    source = {k: v for k, v in out[0].source.items() if k != "_chip"}
    out[0] = out[0].model_copy(update={"source": source})
    try:
        state = HandState.start(out[0])
        for e in out[1:]:
            state.apply(e)
    except IllegalAction as exc:
        raise IllegalHand(_scaled(exc.reason, out[0]), **where) from exc
    return out, state


#: The end of a hand read whole (False) or cut off (True).
_ENDED = {False: ev.HandEnded(status="complete"), True: ev.HandEnded(status="incomplete")}


#: A number standing alone in a reason (``to 35``, ``50``), not a card (``7h``) or a seat.
_AMOUNT = re.compile(r"(?<![\w.])\d+(?![\w])")


def _scaled(reason: str, started: Any) -> str:
    """The engine's ``reason`` about a hand whose file writes decimal amounts, which the
    engine counts in chips of the smallest decimal (``0.30`` is 30 chips of 0.01): said so,
    so that its numbers can be read against the file's."""
    decimals = started.unit.decimals
    if not decimals or not _AMOUNT.search(reason):  # no amount to read (a card, a player)
        return reason
    return (f"{reason} (in chips of 0.{'0' * (decimals - 1)}1: the file's amounts "
            f"× {10 ** decimals})")


def _from_finishing_stacks(hand: Any, state: HandState) -> list[ev.RecordedPayout]:
    """The payouts a file's ``finishing_stacks`` imply when it records no ``winnings``: what
    each player left with, less what he kept of his stack (FORMATS.md §1; the Pluribus hands
    record their results so). Chips pushed to him: finishing − (starting − put in).

    Raises:
        IllegalAction: a finishing stack below what the player kept of his stack.
    """
    finishing = getattr(hand, "finishing_stacks", None)
    if not finishing:
        return []
    out = []
    for seat, stack in zip(hand.started.seats, finishing, strict=True):
        kept = seat.stack - state.contributed[seat.player]
        paid = stack - kept
        if paid < 0:
            raise IllegalAction(f"{seat.player}'s finishing stack {stack} is less than "
                                f"{seat.player} kept of the stack ({kept})")
        if paid:
            out.append(ev.RecordedPayout(player=seat.player, amount=paid))
    return out


def check_events(events: Sequence[Any], *, file: str | None = None,
                 lines: Sequence[int] | None = None, in_play: bool = False) -> HandState:
    """Fold ready-made events through the engine; return the final state.

    A hand with corrections (our own export of a corrected or voided hand) is checked as it
    reads with them applied (:func:`replay.amendments.effective_events`). A hand from a file must
    reach its end (``hand_ended``, complete or ``incomplete`` as a cut log marks it, or a
    void): one that stops without it is a cut file, never written half. ``in_play``: the
    file proves the hand was still being played (an export's closing line,
    :mod:`ledger.formats.jsonl.lines`): it must then be open (state ``open``), and may be.

    Raises:
        IllegalHand: naming the file, the line (when ``lines`` gives one per event), the hand
            and the event; a hand that stops before its end not ``in_play``, or one
            ``in_play`` that ended.
    """
    hand = events[0].hand if events and events[0].type == "hand_started" else None
    if hand is None:
        raise IllegalHand("a hand must begin with hand_started", file=file,
                          line=lines[0] if lines else None)
    if "correction" in [e.type for e in events]:
        return _check_corrected(events, file=file, lines=lines, hand=hand, in_play=in_play)
    # no correction here: every event after the first is applied (a void too); the loop is
    # bare of per-event tests (~0.1 us of ~1.5 an event, measured on a 1M-event import)
    i = 0
    try:
        state = HandState.start(events[0])
        apply = state.apply
        for i, e in enumerate(events[1:], 1):  # noqa: B007 (i: the except names it)
            apply(e)
    except IllegalAction as exc:
        raise IllegalHand(
            exc.reason,
            file=file,
            line=lines[i] if lines else None,
            hand=hand,
            action=_describe(events[i]),
        ) from exc
    if in_play:
        _check_in_play(state, file=file, line=lines[-1] if lines else None, hand=hand)
    elif state.status == "open":
        raise IllegalHand(
            "the hand stops before its end (no hand_ended): is the file cut? (a hand still "
            "being played is recorded with `hand start` and `act`)",
            file=file, line=lines[-1] if lines else None, hand=hand,
            action=_describe(events[-1]))
    return state


def _check_in_play(state: HandState, **where: Any) -> None:
    """Refuse a hand the file says is in play that is not (it ended, or was voided)."""
    if state.status != "open":
        raise IllegalHand(f"the file's closing line names the hand in play, but it is "
                          f"{state.status}: the file was changed after it was written", **where)


def _check_corrected(events: Sequence[Any], *, file: str | None, lines: Sequence[int] | None,
                     hand: str, in_play: bool = False) -> HandState:
    from replay.fold import fold_stream

    where = {"file": file, "line": lines[-1] if lines else None, "hand": hand}
    try:
        state = fold_stream(events)[0]
    except IllegalAction as exc:
        raise IllegalHand(f"the corrected hand is not legal: event {exc.seq}: {exc.reason}",
                          **where) from exc
    if in_play:
        _check_in_play(state, **where)
    elif state.status == "open":
        raise IllegalHand("the corrected hand stops before its end (no hand_ended or void)",
                          **where)
    return state


def _describe(event: Any) -> str:
    player = getattr(event, "player", None)
    return f"{event.type}" + (f" by {player}" if player else "")
