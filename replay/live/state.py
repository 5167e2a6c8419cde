"""A live hand as it stands (``handledger state``): its state with corrections applied, read
from the ledger's tail (:func:`current`), its pots and returns so far, and whose turn it is
with what is legal, in the amounts ``act`` takes (:func:`legal_now`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.betting import bet_word
from engine.state import HandState
from ledger.model.errors import no_hand
from replay.first_to_act import who_acts
from replay.fold import fold_stream
from replay.typed import as_typed, bet_range


def current(ledger: Any, hand: str) -> tuple[HandState, int]:
    """The hand's state as it stands (corrections applied) and its stream's last seq. Its
    rows are read where a hand recorded live has them, at the ledger's tail
    (:meth:`ledger.store.store.Ledger.read_recent`: the whole stream, wherever it lies).

    Raises:
        NotFound: no such hand; IllegalAction: its events do not replay.
    """
    state, rows = current_rows(ledger, hand)
    return state, len(rows)


def current_rows(ledger: Any, hand: str) -> tuple[HandState, list[Any]]:
    """:func:`current`'s state, with the stream's rows."""
    rows = ledger.read_recent(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    return fold_stream([r.event for r in rows])[0], rows


@dataclass(frozen=True)
class Now:
    """A hand as it stands: its state, its pots and returns so far (``engine.settle``), and
    whose turn it is with what is legal, in words (for a hand that is over, ``"hand
    complete"`` or ``"hand voided: every contribution returned"``); ``ended``: how it ended
    (:class:`replay.over.Ended`; None while it is open)."""

    state: HandState
    result: Any
    legal: str
    ended: Any = None  # replay.over.Ended
    #: each player's chips bet in the betting round in progress (none: no round is, or he
    #: bet nothing in it), chips the pots above hold already: :func:`round_bets`
    bets: dict[str, int] = field(default_factory=dict)
    #: at the showdown of a hand in play whose cards decide its pots, no payout typed yet:
    #: the pots as the rules award them, in ``show``'s words (:func:`replay.over.rules_pay`)
    rules: tuple[str, ...] = ()


#: What a hand that is over says in place of whose turn it is, by its status.
_OVER = {"voided": "hand voided: every contribution returned",
         "incomplete": "hand incomplete: the log stops before its end, every contribution "
                       "returned"}


def now(ledger: Any, hand: str) -> Now:
    """:class:`Now` of ``hand``.

    Its rows are checked first, as every read that shows a hand checks them
    (:func:`ledger.store.shown_rows.check_shown`: each hashes to its stored hash).

    Raises:
        NotFound: no such hand; IllegalAction: its events do not replay; ChainBroken: a row
            of the hand was changed outside handledger (named as ``verify`` names it).
    """
    from engine.settle import settle
    from ledger.store.shown_rows import check_shown, not_shown

    rows = ledger.read_recent(hand)
    if not rows or rows[0].hand_id is None:
        raise no_hand(ledger.path, hand)
    check_shown(ledger.path, rows, not_shown(hand))
    state = fold_stream([r.event for r in rows])[0]
    result = settle(state)
    if state.status == "open":
        from replay.over import rules_pay

        return Now(state, result, legal_now(state), bets=round_bets(state),
                   rules=rules_pay(state, result))
    from replay.over import ended

    return Now(state, result, _OVER.get(state.status, f"hand {state.status}"),
               ended(state, result))


def round_bets(state: HandState) -> dict[str, int]:
    """Each player's chips bet in the betting round in progress (the blinds of the first
    before its cards are out), those above 0: a part of the pots, which hold every chip put
    in (RULES.md §1.2). Empty between rounds, at the showdown, and once the betting is over
    (every player but one all-in: :func:`engine.settle.betting_over`), when a round's bets
    are only chips in the pots (or an uncalled bet returned, §1.4)."""
    from engine.settle import betting_over

    if state.status != "open" or betting_over(state):
        return {}
    if state.phase != "bet" and not (state.phase in ("forced", "deal") and state.street <= 0):
        return {}
    return {p: c for p, c in state.street_bets.items() if c}


def words_now(state: HandState) -> str | None:
    """The action words a betting round takes now from the player to act, in the notation
    (FORMATS.md §1), which :func:`legal_now` gives as amounts: ``"Ann f, Ann cc or Ann cbr
    AMOUNT"``, on stud's third street before anyone bets ``"Ann pb or Ann cbr AMOUNT"``
    (RULES.md §4.1); None outside a betting round (:func:`replay.nextstep.next_step` names
    the words then) or when who acts is unknown."""
    if state.phase != "bet":
        return None
    who, _ = who_acts(state)
    if who is None:
        return None
    if (state.game.stud and state.street == 0 and state.started.stakes.bring_in
            and state.rnd.current == 0):
        return f"{who} pb or {who} cbr AMOUNT"
    return f"{who} f, {who} cc or {who} cbr AMOUNT"


def legal_now(state: HandState, player: str | None = None) -> str:
    """``"Bob to act: to call 10, raise to 20..150"`` (stud's third street: ``"bring in 1
    (pb), complete to 2..2"``, then ``"to call 1, complete to 2..2"``; a bring-in player
    with no more than the bring-in posts what he has, all-in: ``"bring in 2 (pb), all-in: all he
    has, short of the bring-in 3"``, RULES.md §1.1, §4.1; ``"check or call 5"`` when what he
    owes is owed to nobody, a short all-in big blind covered, §4.2); when nobody is to
    bet, the phase and what it waits for (:func:`replay.nextstep.next_step`: ``"phase deal,
    next: d db CARDS (3 cards)"``). Amounts as the hand's actions take them
    (:func:`replay.typed.as_typed`: ``"to call 2.00, raise to 4.00..200.00"`` in a hand kept
    in cents); a no-limit or pot-limit raise below the minimum that covers every opponent
    offered too (``"raise to 118..500, or to 100 covering every opponent"``, RULES.md §1.7:
    :meth:`engine.state.HandState.covering_to`)."""
    if state.phase != "bet":
        from replay.nextstep import next_step

        return next_step(state)
    # an upcard unknown: who opens, as far as it is known (replay.first_to_act)
    who, unsure = (player, "") if player else who_acts(state)
    if who is None:
        return f"phase {state.phase}"
    stakes = state.started.stakes
    bring_in = stakes.bring_in
    third_street = state.game.stud and state.street == 0 and bring_in

    def a(chips: int) -> str:
        return as_typed(state, chips)

    lim = state.limits(who)
    if not lim.to_call:
        text = f"{who} to act: check"
    elif state.may_check(who):  # owed to nobody: a call of it comes back (RULES.md §4.2)
        text = f"{who} to act: check or call {a(lim.to_call)}"
    else:
        text = f"{who} to act: to call {a(lim.to_call)}"
    verb = bet_word(state)  # bet, raise or complete, as the refusals say it
    if third_street and state.rnd.current == 0:
        stack = state.stacks[who]
        if stack <= bring_in and not unsure:  # he posts what he has, all-in (RULES.md §1.1)
            short = f": all {who} has, short of the bring-in {a(bring_in)}" if stack < bring_in \
                else ""
            return f"{who} to act: bring in {a(stack)} (pb), all-in{short}"
        text = f"{unsure or f'{who} to act'}: bring in {a(bring_in)} (pb)"
    elif unsure:
        text = f"{unsure}: {text.split(': ', 1)[1]}"
    if lim.min_to is not None:
        text += f", {bet_range(verb, a(lim.min_to), a(lim.max_to), state.fixed)}"
        covering = state.covering_to(who)
        if covering is not None:  # below the minimum, taken with a note (RULES.md §1.7)
            text += f", or to {a(covering)} covering every opponent"
    elif lim.reason:
        text += f" (no raise: {lim.reason})"
    return text
