"""What the table may pay out of a hand: the rules a payout recorded at the table (``act HAND
"pay PLAYER AMOUNT"``, ``returned PLAYER AMOUNT``) and a hand's end are held to, and which a
correction of a hand is held to as well (:func:`new_fault`).

A payout goes to a player who has not folded (RULES.md §1.3-1.5), chips marked returned
(``returned PLAYER AMOUNT``) are at most the player's uncalled bet (§1.4:
:func:`within_uncalled_bet`), no player is paid more than
he can win, the pots he is eligible for plus any uncalled bet returned to him (§1.2-1.5:
:func:`replay.compare.most_can_win`, the audit's feasibility bound), the payouts and the rake
never come to more than the chips in the pot, the rake and the payouts beyond a player's
uncalled bet come out of the pots only (never out of another's uncalled bet, which is returned
to him: §1.2-1.4; :func:`rake_within_the_pots`, with or without a rake), a plain payout
recorded after the rake pays pot chips only (an uncalled bet is ``returned``:
:func:`raked_pay_within_the_pots`, by its place in a corrected hand too), and a hand ends
only with every chip of its pot paid to somebody (or carried to the next hand, §7.1), and no
chip the pot carries to the next hand is paid as well (RULES.md §2.2, §3.8, §7.1:
:func:`not_carried`).

Each refusal gives its amounts as ``act`` takes them for the hand (:func:`replay.typed.as_typed`):
chips, or for a hand kept in a unit with decimals (an imported file in dollars and cents, FORMATS.md
§1: ``pay Ann 1.50``) that unit, so ``the pot holds 146.00``, never its 14600 cents.

The settlement (engine.settle, replay.compare) is loaded only where a payout, a rake or an
end is checked, never by the other live actions (tests/test_live_imports.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from engine.errors import IllegalAction
from engine.state import HandState
from ledger.model import events as ev
from ledger.model.carry_rules import carry_sections
from ledger.model.shell import shell_arg
from replay.typed import as_typed


def of_the_pot(state: HandState, chips: int) -> str:
    """The chips in a pot as a refusal names them: ``"450 chips"``, or ``"4.50"`` in a hand
    kept in a unit with decimals (:func:`replay.typed.as_typed`)."""
    return as_typed(state, chips) if state.started.unit.decimals else f"{chips} chips"


def above_zero(event: ev.RecordedPayout) -> None:
    """Refuse a payout of no chips (``pay Ann 0``), as ``rake 0`` is refused: nothing pushed
    to a player is no payout, and the live notation records only what the table paid. (An
    imported hand may carry zero payouts, which mean nothing: a PHH ``winnings`` of 0 is no
    payout, FORMATS.md §1; the event model takes them.)

    Raises:
        IllegalAction: ``"a payout is a number of chips above 0 …"``.
    """
    if event.amount <= 0:
        raise IllegalAction("a payout is a number of chips above 0 (a player the table pays "
                            "nothing gets no payout line)")


def not_folded(state: HandState, event: ev.RecordedPayout) -> None:
    """Refuse a payout, pot or returned chips, to a player who folded: his chips are dead
    money, he is eligible for no pot (RULES.md §1.3, §1.5), and an uncalled bet is never his,
    since whoever he folded to put in more (§1.4). RULES.md knows no chop that pays a folder.

    Raises:
        IllegalAction: ``"Ann folded: a folded player wins no pot and has no uncalled bet to
            be returned (RULES.md §1.3-1.5)"``.
    """
    if event.player in state.folded:
        raise IllegalAction(_folded(event.player))


def _folded(player: str) -> str:
    return (f"{player} folded: a folded player wins no pot and has no uncalled bet to be "
            "returned (RULES.md §1.3-1.5)")


def within_uncalled_bet(state: HandState, event: ev.RecordedPayout, result: Any) -> None:
    """Refuse chips marked returned (``returned PLAYER AMOUNT``, ``returned`` true) that take
    what the hand gives back to ``event.player`` as returned, this payout included, above his
    uncalled bet: only the part of a bet nobody called is returned (RULES.md §1.4); chips won
    from a pot are ``pay PLAYER AMOUNT``. A payout not marked returned is not checked here.
    ``result``: the rules' :class:`engine.settle.HandResult` of ``state``.

    Raises:
        IllegalAction: ``"Ann has no uncalled bet, but 1 would be returned to Ann (RULES.md
            §1.4: only a bet nobody called is returned); chips won from a pot are paid with
            pay PLAYER AMOUNT"`` (``"Ann's uncalled bet is 8, but 10 …"``).
    """
    if not event.returned:
        return
    already = sum(p.amount for p in state.payouts if p.player == event.player and p.returned)
    if already + event.amount > result.returned.get(event.player, 0):  # as returned_beyond
        raise IllegalAction(_beyond_uncalled(state, result, event.player,
                                             already + event.amount, already))


def _beyond_uncalled(state: HandState, result: Any, player: str, back: int,
                     already: int = 0) -> str:
    """The words of :func:`within_uncalled_bet`'s refusal: ``back`` chips in all would be
    returned to ``player``, ``already`` of them by payouts recorded before (amounts as
    :func:`replay.typed.as_typed` writes them)."""
    from replay.compare import returned_words

    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    verb = f"({a(already)} of them already) would be" if already else "would be"
    return (returned_words(result, player, back, verb, a)
            + "; chips won from a pot are paid with pay PLAYER AMOUNT")


def within_reach(state: HandState, event: ev.RecordedPayout, result: Any) -> None:
    """Refuse a payout that takes what the hand pays ``event.player`` (pots and returned
    chips, this one included) above the most he can win: the pots he is eligible for plus
    any uncalled bet returned to him (RULES.md §1.2-1.5; :func:`replay.compare.most_can_win`).
    The bound is over every pot and run (run it twice, a hi-lo split, a declaration: he can
    take at most the whole of each pot he is eligible for). ``result``: the rules'
    :class:`engine.settle.HandResult` of ``state``.

    Raises:
        IllegalAction: ``"Cy can win at most 219 (the pots Cy is eligible for: the main pot of 219;
            RULES.md §1.2-1.5): 273 would be paid to Cy"``.
    """
    from replay.compare import most_can_win

    already = sum(p.amount for p in state.payouts if p.player == event.player)
    if already + event.amount > most_can_win(result, event.player):
        raise IllegalAction(_beyond_reach(state, result, event.player,
                                          already + event.amount, already))


def _to_its_player(bets: dict[str, int]) -> str:
    """``is returned to Ann`` of one uncalled bet (``bets``: player → chips), ``are each
    returned to the player who bet it`` of more (RULES.md §1.4)."""
    if len(bets) == 1:
        return f"is returned to {next(iter(bets))}"
    return "are each returned to the player who bet it"


def _beyond_reach(state: HandState, result: Any, player: str, paid: int, already: int = 0
                  ) -> str:
    """The words of :func:`within_reach`'s refusal: ``player`` would be paid ``paid`` in all,
    ``already`` of it by payouts recorded before (amounts as :func:`replay.typed.as_typed`
    writes them)."""
    from engine.awards import pot_name  # a refusal's words: off the live action's path
    from replay.compare import most_can_win

    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    pots = [f"the {pot_name(p.index).lower()} of {a(p.amount)}" for p in result.pots
            if player in p.eligible]
    where = f"the pots {player} is eligible for: {', '.join(pots)}" if pots else (
        f"{player} is eligible for no pot")
    back = result.returned.get(player, 0)
    if back:
        where += f"; {player}'s uncalled bet of {a(back)} returned"
    return (f"{player} can win at most {a(most_can_win(result, player))} ({where}; RULES.md "
            f"§1.2-1.5): {a(paid)} would be paid to {player}"
            + (f" ({a(already)} already)" if already else ""))


def over_the_pot(state: HandState, event: ev.RecordedPayout, result: Any = None) -> None:
    """Refuse a payout that takes the hand's recorded payouts (pots and returned chips) and
    its rake above the chips in the pot: every chip put in plus chips carried in (RULES.md
    §1.2, §7.1). ``result``: the rules' :class:`engine.settle.HandResult` of ``state``, whose
    uncalled bet returned (RULES.md §1.4) the refusal names apart from the pots, as ``state``
    shows them (``Main pot: 2``, ``returned: Bob 1``).

    Raises:
        IllegalAction: ``"the pot holds 200, 150 already paid: at most 50 more can be paid"``
            (``"the pot holds 200, 190 already paid and 10 raked: nothing more can be
            paid"``; ``"the pot holds 2.00, …"`` in a hand kept in cents; ``"the pot holds 2
            and Bob's uncalled bet of 1 is returned to Bob (RULES.md §1.4): 3 to pay, 1
            already paid: …"``).
    """
    pot = state.pot_total()
    paid = sum(p.amount for p in state.payouts)
    rake = state.rake or 0
    if paid + rake + event.amount > pot:
        raked = f" and {as_typed(state, rake)} raked" if rake else ""
        left = pot - paid - rake
        more = (f"at most {as_typed(state, left)} more can be paid" if left > 0
                else "nothing more can be paid")
        raise IllegalAction(f"{in_the_middle(state, result)}, {as_typed(state, paid)} "
                            f"already paid{raked}: {more}")


def in_the_middle(state: HandState, result: Any = None) -> str:
    """``"the pot holds 200"``: the chips a hand's payouts may take, every chip put in plus
    chips carried in; when the rules return an uncalled bet (``result``: their
    :class:`engine.settle.HandResult`, RULES.md §1.4), the pot without it and the bet apart,
    as ``state`` shows them: ``"the pot holds 2 and Bob's uncalled bet of 1 is returned to
    him (RULES.md §1.4): 3 to pay"``."""
    pot = state.pot_total()
    back = {p: c for p, c in (result.returned if result is not None else {}).items() if c}
    if not back:
        return f"the pot holds {as_typed(state, pot)}"
    bets = " and ".join(f"{p}'s uncalled bet of {as_typed(state, c)} is returned to {p}"
                        for p, c in back.items())
    return (f"the pot holds {as_typed(state, pot - sum(back.values()))} and {bets} (RULES.md "
            f"§1.4): {as_typed(state, pot)} to pay")


def carried_chips(state: HandState, result: Any) -> int:
    """The chips of ``state``'s pot that go to the session's next hand, none of which the
    table may pay (RULES.md §2.2, §3.8, §7.1): those the rules carry (``result``: the rules'
    :class:`engine.settle.HandResult` of ``state``) or, when more, those a ``carry_over``
    records carried already (a later hand took them)."""
    return max(result.carried, state.carried_out)


def not_carried(state: HandState, event: ev.RecordedPayout, result: Any) -> None:
    """Refuse a payout that takes the hand's recorded payouts and its rake into the chips its
    pot carries to the session's next hand (:func:`carried_chips`): a pot the rules carry
    (``no_eligible_winner = carry_over``, ``odd_chip_tie_order = carry_to_next_hand``) stays
    in the middle for the next deal and is paid by no one (RULES.md §2.2, §3.8, §7.1).

    Raises:
        IllegalAction: ``"the pot holds 4, 4 of it carried to the session's next hand
            (no_eligible_winner = carry_over; RULES.md §3.8, §7.1): nothing can be paid"``.
    """
    over, words = _beyond_carried(state, result, event.amount)
    if over:
        raise IllegalAction(words)


def rake_not_carried(state: HandState, rake: int, result: Any) -> None:
    """Refuse a rake of ``rake`` chips (``rake AMOUNT``) that, with the payouts recorded,
    takes chips the pot carries to the session's next hand (:func:`not_carried`).

    Raises:
        IllegalAction: ``"the pot holds 4, 4 of it carried to the session's next hand (…):
            nothing can be raked"``.
    """
    over, words = _beyond_carried(state, result, rake, raking=True)
    if over:
        raise IllegalAction(words)


def _beyond_carried(state: HandState, result: Any, more: int | None = None, *,
                    raking: bool = False) -> tuple[int, str]:
    """``(chips, words)``: the chips the payouts and the rake take of those the pot carries
    to the next hand, and :func:`not_carried`'s refusal; ``more``: the chips of a payout (or,
    ``raking``, of the rake) about to be recorded, None: of those recorded; ``(0, "")`` when
    they take none."""
    carried = carried_chips(state, result)
    if not carried:
        return 0, ""
    pot = state.pot_total()
    paid = sum(p.amount for p in state.payouts)
    rake = hand_rake(state)
    over = paid + rake + (more or 0) - (pot - carried)
    if over <= 0:
        return 0, ""
    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    head = (f"the pot holds {a(pot)}, {a(carried)} of it carried to the session's next hand "
            f"({carry_rule(state)}; {carry_sections(state.started.options)})")
    left = pot - carried - rake - paid
    raked = f" and {a(rake)} raked" if rake else ""
    if more is None:
        return over, (f"{head}: the payouts come to {a(paid)}{raked}, at most "
                      f"{a(max(0, pot - carried - rake))} can be paid")
    verb = "raked" if raking else "paid"
    done = f", {a(paid)} already paid{raked}" if paid or rake else ""
    return over, (f"{head}{done}: " + (f"at most {a(left)} can be {verb}" if left > 0
                                         else f"nothing can be {verb}"))


def carry_rule(state: HandState) -> str:
    """The option of ``state``'s hand that carries chips to the next hand, as its rule
    table writes it (RULES.md §5): ``no_eligible_winner = carry_over``, ``odd_chip_tie_order
    = carry_to_next_hand``, or both; ``a carry_over recorded`` when neither."""
    options = state.started.options
    said = []
    if options.declare is not None and options.declare.no_eligible_winner == "carry_over":
        said.append("no_eligible_winner = carry_over")
    if options.split.odd_chip_tie_order == "carry_to_next_hand":
        said.append("odd_chip_tie_order = carry_to_next_hand")
    return ", ".join(said) or "a carry_over recorded"


def out_of_the_pots(state: HandState, result: Any, extra: ev.RecordedPayout | None = None
                    ) -> int:
    """The chips the payouts recorded in ``state`` (and ``extra``, one about to be) take out
    of the pots, in chips: what each player is paid beyond the uncalled bet returned to him
    (RULES.md §1.2-1.4: an uncalled bet is given back, it is in no pot). ``result``: the
    rules' :class:`engine.settle.HandResult` of ``state``."""
    paid = paid_by_player((*state.payouts, *([extra] if extra is not None else [])))
    return sum(max(0, chips - result.returned.get(player, 0)) for player, chips in paid.items())


def rake_within_the_pots(state: HandState, rake: int, result: Any,
                         extra: ev.RecordedPayout | None = None) -> None:
    """Refuse a rake of ``rake`` chips (0: a hand with no rake) that, with what the payouts
    (``extra`` too) take out of the pots (:func:`out_of_the_pots`), comes to more than the pots
    hold: the rake and the payouts are taken from the pots only, never from an uncalled bet,
    which goes back to its player (RULES.md §1.2-1.4). ``result``: the rules'
    :class:`engine.settle.HandResult` of ``state``.

    Raises:
        IllegalAction: ``"a rake of 6 is more than the pots: they hold 5 (Ann's uncalled bet
            of 8 is returned to Ann, it is in no pot; RULES.md §1.2-1.4): at most 5 can be
            raked"`` (for a payout: ``"… 5 raked: at most 0 more can be paid out of them"``;
            with no rake: ``"the pots hold 20 (…), 20 of them paid: nothing more can be paid
            out of them …"``).
    """
    over, words = _raked_beyond(state, rake, result, extra)
    if over:
        raise IllegalAction(words)


def paid_by_player(payouts: Iterable[ev.RecordedPayout], *, returned: bool | None = None
                   ) -> dict[str, int]:
    """The chips ``payouts`` pay each player, in chips: all of them, or (``returned``) only
    those marked returned (``returned PLAYER AMOUNT``, True) or only the plain ones (``pay
    PLAYER AMOUNT``, False)."""
    paid: dict[str, int] = {}
    for payout in payouts:
        if returned is None or payout.returned == returned:
            paid[payout.player] = paid.get(payout.player, 0) + payout.amount
    return paid


def pot_chips_paid(state: HandState, result: Any, extra: ev.RecordedPayout | None = None
                   ) -> int:
    """The chips of the pots that the plain payouts (``pay PLAYER AMOUNT``, not marked
    returned) recorded in ``state`` (and ``extra``, one about to be) pay once the hand records
    a rake: each player's plain payouts pay the pots he is eligible for first, only what goes
    beyond them his uncalled bet (as :func:`_short` reads them), so a plain payout beyond the
    pots less the rake is an uncalled bet paid as pot chips (RULES.md §1.2-1.4). ``result``:
    the rules' :class:`engine.settle.HandResult` of ``state``."""
    plain = paid_by_player((*state.payouts, *([extra] if extra is not None else [])),
                           returned=False)
    return sum(min(chips, sum(p.amount for p in result.pots if player in p.eligible))
               for player, chips in plain.items())


def raked_pay_within_the_pots(state: HandState, event: ev.RecordedPayout, result: Any
                              ) -> None:
    """Refuse a plain payout (``pay PLAYER AMOUNT``) recorded after the rake (``rake
    AMOUNT``) that takes the pot chips the plain payouts pay (:func:`pot_chips_paid`) and the
    rake above the pots: the rest of the chips in the middle is an uncalled bet, never
    raked, and is given back marked returned (``returned PLAYER AMOUNT``, RULES.md §1.2-1.4;
    docs/LIVE.md, "A home game's rake"). A hand with no rake, or a payout marked returned, is not
    checked here (:func:`rake_within_the_pots`, :func:`within_uncalled_bet`), nor one that
    returns no uncalled bet (:func:`over_the_pot`).

    Raises:
        IllegalAction: ``"the pots hold 4 (Ann's uncalled bet of 8 is returned to Ann, it is
            in no pot; RULES.md §1.2-1.4), 1 raked, 3 of them paid: nothing more can be paid
            out of them; Ann's uncalled bet is paid back with `returned Ann 8`"``.
    """
    over, words = _raked_pay_beyond(state, event, result)
    if over:
        raise IllegalAction(words)


def _raked_pay_beyond(state: HandState, event: ev.RecordedPayout, result: Any
                      ) -> tuple[int, str]:
    """``(chips, words)``: the chips by which the plain payout ``event``, recorded after the
    rake, takes the pot chips paid and the rake above the pots, and
    :func:`raked_pay_within_the_pots`' refusal; ``(0, "")`` when it does not."""
    rake = state.rake or 0
    if not rake or event.returned or not any(result.returned.values()):
        return 0, ""  # no uncalled bet: over_the_pot says what is left of the pot
    pots = sum(p.amount for p in result.pots)
    over = pot_chips_paid(state, result, event) + rake - pots
    if over <= 0:
        return 0, ""
    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    back = {p: c for p, c in result.returned.items() if c}
    aside = ", ".join(f"{p}'s uncalled bet of {a(c)}" for p, c in back.items())
    aside = f" ({aside} {_to_its_player(back)}, it is in no pot; RULES.md §1.2-1.4)" if aside \
        else ""
    before = pot_chips_paid(state, result)
    paid = f", {a(before)} of them paid" if before else ""
    left = pots - rake - before
    more = (f"at most {a(left)} more can be paid" if left > 0 else "nothing more can be paid")
    room = state.pot_total() - sum(p.amount for p in state.payouts) - rake
    marked = paid_by_player(state.payouts, returned=True)
    owed = [(p, min(c - marked.get(p, 0), room)) for p, c in back.items()]
    hints = [f"{p}'s uncalled bet is paid back with `returned {p} {a(c)}`"
             for p, c in owed if c > 0]
    hint = "; " + "; ".join(hints) if hints else " " + _RETURN_HINT
    return over, (f"the pots hold {a(pots)}{aside}, {a(rake)} raked{paid}: {more} out of "
                  f"them{hint}")


def raked_pay_fault(events: Sequence[Any]) -> tuple[int, str]:
    """``(chips, words)``: the most chips by which a plain payout of the hand ``events``
    (its effective events in order, ``hand_started`` first) recorded after its rake takes the
    pot chips paid and the rake above the pots (:func:`raked_pay_within_the_pots`, which the
    live ``pay`` is held to), with that rule's refusal of the payout that takes the most (the
    first of them) as the live ``pay`` would have got it at its place; ``(0, "")`` when none
    does. A payout to a player
    who folded is :func:`not_folded`'s, not weighed here. Only a rake recorded as an event
    (``rake AMOUNT``) has a place among the payouts: a file's rake field has none.

    Raises:
        IllegalAction: ``events`` do not fold (the caller folded them already).
    """
    from engine.settle import settle

    state = HandState.start(events[0])
    most, first = 0, ""
    for event in events[1:]:
        if (event.type == "recorded_payout" and state.rake and not event.returned
                and event.player not in state.folded):
            over, words = _raked_pay_beyond(state, event, settle(state))
            if over > most:
                most, first = over, words
        state.apply(event)
    return most, first


#: What a refusal of :func:`_raked_beyond` says of how an uncalled bet is paid back.
_RETURN_HINT = "(a player's uncalled bet is paid back with `returned PLAYER AMOUNT`)"


def _raked_beyond(state: HandState, rake: int, result: Any,
                  extra: ev.RecordedPayout | None = None) -> tuple[int, str]:
    """``(chips, words)``: the chips the rake (0 when none) and the payouts take beyond the
    pots, and :func:`rake_within_the_pots`' refusal; ``(0, "")`` when within them."""
    pots = sum(p.amount for p in result.pots)
    taken = out_of_the_pots(state, result, extra)
    if rake + taken <= pots:
        return 0, ""
    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    bets = {p: c for p, c in result.returned.items() if c}
    back = ", ".join(f"{p}'s uncalled bet of {a(c)}" for p, c in bets.items())
    aside = f" ({back} {_to_its_player(bets)}, it is in no pot; RULES.md §1.2-1.4)" if back \
        else ""
    if not rake:  # payouts alone: nothing was raked, so the words say nothing of a rake
        if extra is None:
            return taken - pots, (f"the pots hold {a(pots)}{aside}: {a(taken)} would be paid "
                                  f"out of them, at most {a(pots)} can be {_RETURN_HINT}")
        before = out_of_the_pots(state, result)
        paid = f", {a(before)} of them paid" if before else ""
        more = (f"at most {a(pots - before)} {'more ' if before else ''}can be paid"
                if pots > before
                else "nothing more can be paid")
        return taken - pots, (f"the pots hold {a(pots)}{aside}{paid}: {more} out of them "
                              f"{_RETURN_HINT}")
    paid = f", {a(taken)} of them paid" if taken else ""
    if extra is None:
        return rake + taken - pots, (
            f"a rake of {a(rake)} is more than the pots: they hold {a(pots)}{aside}{paid}: at "
            f"most {a(max(0, pots - taken))} can be raked")
    left = max(0, pots - rake - out_of_the_pots(state, result))
    return rake + taken - pots, (
        f"the pots hold {a(pots)}{aside}, {a(rake)} raked: at most {a(left)} more can be paid "
        f"out of them {_RETURN_HINT}")


def paid_to_somebody(state: HandState, stream: Any = None) -> None:
    """Refuse the end of a hand that would leave chips paid to nobody, lost to the books
    (every player's net minus what he put in): a hand whose pots the rules cannot award (a
    showdown of unknown cards, RULES.md §1.6) with no payout recorded, or one whose recorded
    payouts (pots and returned chips) and rake come to less than the chips in the pot, less
    what the rules or the table carry to the next hand (RULES.md §1.4, §7.1): a hand that
    records a rake (``rake AMOUNT``) records its payouts too, the pot less the rake.

    Raises:
        IllegalAction: naming each such pot, whose cards are unknown, and what to record; or
            the chips in the pot, those paid and, when the rules can say, what each player
            is still due in the notation (``returned Dee 20``, ``pay Bob 6``).
    """
    from engine.settle import settle

    result = settle(state)
    message = _unpaid(state, result)[1] or _ended_beyond_carried(state, result, stream)
    if message:
        raise IllegalAction(message)


def _ended_beyond_carried(state: HandState, result: Any, stream: Any = None) -> str:
    """The refusal of an end whose payouts (and rake) take chips the rules carry to the next
    hand (payouts recorded before the shows made the rules carry them: :func:`not_carried`
    refuses them once it can tell), naming how to take them back (:func:`take_back`) from the
    hand's ``stream`` of events when given; "" when they take none."""
    over, words = _beyond_carried(state, result)
    if not over:
        return ""
    back = f"; {take_back(state, stream)}" if stream is not None else ""
    return f"cannot end: {words} ({as_typed(state, over)} too many{back})"


def take_back(state: HandState, stream: Any) -> str:
    """How to take back the payouts and rake of the hand whose stream of events is ``stream``
    (``state``: the engine's after it), each named by its seq in the stream (what ``show``
    prints): ``"take the payout back with `handledger correct h1 --delete 18 --reason R --by
    NAME` (seq 18: pay Ann 4)"``; a payout a correction inserted is named by the seq it
    follows, and taken back with `handledger undo` of that correction."""
    from replay.amendments import numbered_events

    said, seqs, inserted = [], [], []
    for n in numbered_events(stream)[0]:
        e = n.event
        if e.type == "recorded_payout":
            what = f"{'returned' if e.returned else 'pay'} {e.player} {as_typed(state, e.amount)}"
        elif e.type == "recorded_rake":
            what = f"rake {as_typed(state, e.amount)}"
        else:
            continue
        if n.inserted:
            inserted.append(f"{what}, inserted after seq {n.seq}")
        else:
            seqs.append(n.seq)
            said.append(f"seq {n.seq}: {what}")
    out = []
    if seqs:
        deletes = " ".join(f"--delete {s}" for s in seqs)
        out.append(f"take the payout{'s' if len(seqs) > 1 else ''} back with `handledger "
                   f"correct {shell_arg(state.started.hand)} {deletes} --reason R --by NAME` "
                   f"({', '.join(said)})")
    if inserted:
        out.append(f"take back the correction that made {'; '.join(inserted)} "
                   "(`handledger history` names it)")
    return "; ".join(out)


def payouts_of_carried_kept(hand: str, stream: Any, correction: ev.Correction,
                            doing: str) -> None:
    """Refuse a change (``doing``: ``"undoing seq 20 (reveal Bob 4c5d) of hand h1"``) of a
    hand still in play whose recorded payouts (and rake) take chips its pot carries to the
    session's next hand (:func:`not_carried`: payouts recorded before the shows made the
    rules carry them), unless it takes a payout or the rake back: a change of anything else
    (a show taken back, which leaves the rules unable to tell the pot carries) would let the
    hand end with the carried chips paid (RULES.md §2.2, §3.8, §7.1). ``stream``: the hand's events
    before ``correction``.

    Raises:
        IllegalAction: naming the payouts, the carried chips and how to take them back.
    """
    from engine.settle import settle
    from replay.fold import fold_stream

    try:
        state = fold_stream(stream)[0]
    except IllegalAction:
        return
    if state.status != "open":
        return
    over, words = _beyond_carried(state, settle(state))
    if not over:
        return
    after = fold_stream([*stream, correction])[0]

    def taken(s: HandState) -> int:
        return sum(p.amount for p in s.payouts) + hand_rake(s)

    if taken(after) < taken(state):
        return
    raise IllegalAction(f"{doing}: {words} ({as_typed(state, over)} too many), and the hand "
                        f"cannot end so: {take_back(state, stream)} first; nothing written",
                        hand=hand)


def _unpaid(state: HandState, result: Any, before: int = 0) -> tuple[int, str]:
    """``(chips, words)``: the chips of the pot that ``state``'s end leaves to nobody (see
    :func:`paid_to_somebody`; ``result`` its rules' result) and the refusal that says so;
    ``(0, "")`` when every chip goes to somebody. ``before``: the chips a correction's hand
    left to nobody before it (:func:`new_fault`), said beside them. A hand whose file records
    a rake records its payouts as one raked live does (an import refuses one without them
    unless the rake took the pot: :func:`replay.ingest.rakes.rake_finding`), so a correction
    that takes them all away leaves its pot to nobody too, never to the rules' awards."""
    if state.payouts or hand_rake(state):
        return _short(state, result, before)
    unknown = [p for p in result.pots if not p.verifiable and p.amount]
    if not unknown:
        return 0, ""
    said = "; ".join(p.lines[0].rstrip(".") if p.lines else f"pot {p.amount}" for p in unknown)
    return sum(p.amount for p in unknown), (
        f"cannot end with nothing paid, or its chips go to nobody: {said}; record who won "
        "(pay PLAYER AMOUNT) or the unknown cards first")


def hand_rake(state: HandState) -> int:
    """The rake ``state``'s hand records, in chips: the one recorded at the table (``rake
    AMOUNT``), else its file's (PHH's ``rake``, a site's summary:
    :func:`replay.rake.filed_rake`), 0 when none. A correction holds a file's rake to the
    rules a live one is held to (docs/LIVE.md, "A home game's rake")."""
    if state.rake is not None:
        return state.rake
    source = state.started.source or {}
    if source.get("rake") is None and source.get("site_rake") is None:
        return 0
    from replay.rake import filed_rake

    return filed_rake(state.started) or 0


def _short(state: HandState, result: Any, before: int) -> tuple[int, str]:
    """:func:`_unpaid` of a hand that records payouts or a rake. What the rules still owe
    each player is said in the notation only when they account
    for the whole shortfall and none of it was there ``before`` (a site's rake the file
    records is no player's due)."""
    unpaid, due = _still_due(state, result)
    if unpaid <= 0:
        return 0, ""
    pot = state.pot_total()
    rake = hand_rake(state)
    carried = max(result.carried, state.carried_out)
    a = partial(as_typed, state)  # amounts as the hand's actions are typed

    earlier = f" ({a(before)} before this correction)" if before else ""
    hint = earlier
    if not before and due and result.verifiable and sum(c for _, _, c in due) == unpaid:
        hint = " (by the rules: " + ", ".join(f"{w} {p} {a(c)}" for w, p, c in due) + ")"
    if rake:
        back = [(w, p, c) for w, p, c in due if w == "returned"]
        if not before and back and sum(c for _, _, c in back) == unpaid:  # the rake took the rest
            earlier = " (an uncalled bet is returned, never raked: " + ", ".join(
                f"{w} {p} {a(c)}" for w, p, c in back) + ")"
        opening = _paid_of(state, result, pot, pot - unpaid - rake - carried, rake, carried)
        return unpaid, (f"{opening}: "
                        f"{a(unpaid)} would go to nobody{earlier}; record the rest (pay PLAYER "
                        "AMOUNT, returned PLAYER AMOUNT for an uncalled bet) first")
    return unpaid, (f"{_paid_of(state, result, pot, pot - unpaid - carried, 0, carried)}: "
                    f"{a(unpaid)} would go to "
                    f"nobody{hint}; record the rest (pay PLAYER AMOUNT, returned PLAYER AMOUNT "
                    "for an uncalled bet) first")


def returns_due(state: HandState, result: Any) -> tuple[list[tuple[str, int]], int]:
    """The uncalled bets ``end`` of a hand with payouts or a rake recorded still waits for
    (RULES.md §1.4: returned, never in a pot nor raked), ``[(player, chips)]`` in the order of
    ``result.players`` (``result``: :func:`engine.settle.settle` of ``state``), as the refusal
    of a short ``end`` names them (``returned Ann 50``), and the chips beyond them still left
    to nobody (0: recording those returns is all ``end`` waits for); ``([], 0)`` when its
    payouts leave no chip to nobody."""
    unpaid, due = _still_due(state, result)
    if unpaid <= 0:
        return [], 0
    back = [(p, c) for w, p, c in due if w == "returned"]
    return back, max(0, unpaid - sum(c for _, c in back))


def _still_due(state: HandState, result: Any) -> tuple[int, list[tuple[str, str, int]]]:
    """``(chips, due)``: the chips a hand that records payouts or a rake leaves to nobody
    (the pot less the payouts, the rake and the chips carried on; 0 or less: none), and,
    when some are, what the rules still owe each player in the notation, ``(word, player,
    chips)``: ``returned`` of his uncalled bet, ``pay`` of what he won."""
    pot = state.pot_total()
    paid = paid_by_player(state.payouts)
    carried = max(result.carried, state.carried_out)
    unpaid = pot - sum(paid.values()) - hand_rake(state) - carried
    if unpaid <= 0:
        return unpaid, []
    marked = paid_by_player(state.payouts, returned=True)  # ``returned PLAYER AMOUNT``
    due: list[tuple[str, str, int]] = []  # (notation word, player, chips) the rules still owe
    for player in result.players:
        # a plain payout pays the pots first, its chips beyond them his uncalled bet (PHH
        # pays both as one): ``pay Bob 2`` of a pot of 2 leaves his uncalled 1 returned, not
        # a payout to record (RULES.md §1.4)
        won = result.awards.get(player, 0)
        plain = paid.get(player, 0) - marked.get(player, 0)
        back = result.returned.get(player, 0)
        short_back = max(0, back - marked.get(player, 0) - max(0, plain - won))
        short_won = max(0, won - plain)
        due += [("returned", player, short_back)] * bool(short_back)
        due += [("pay", player, short_won)] * bool(short_won)
    return unpaid, due


def _paid_of(state: HandState, result: Any, chips: int, paid: int, rake: int = 0,
             carried: int = 0) -> str:
    """How much of the ``chips`` a hand's payouts (and its ``rake``) must account for is
    ``paid`` (chips the payouts paid), as the refusal of a short ``end`` opens: ``"cannot
    end with 250 of the pot's 300 chips paid"`` (``"… paid and 10 raked"``); with chips
    ``carried`` to the session's next hand (an odd chip, a pot nobody is left to win:
    RULES.md §2.2, §3.8, §7.1), which are no one's to pay, ``"cannot end: 23 of the 29 chips
    to pay are paid (the pot's 30 less 1 carried to the next hand)"``; with an uncalled bet
    to return, which is no part of any pot (RULES.md §1.4), ``"cannot end: 2 of the 3 chips
    to pay are paid (the pot's 2, and Bob's uncalled bet of 1 to return, RULES.md §1.4)"``,
    as ``state`` shows them; amounts as the hand's actions are typed
    (:func:`replay.typed.as_typed`)."""
    raked = f" and {as_typed(state, rake)} raked" if rake else ""
    returned = {p: c for p, c in result.returned.items() if c}
    said = as_typed(state, paid)
    are = "is" if said == "1" else "are"
    less = f" less {as_typed(state, carried)} carried to the next hand" if carried else ""
    if not returned and not carried:
        return f"cannot end with {said} of the pot's {of_the_pot(state, chips)} paid{raked}"
    if not returned:
        return (f"cannot end: {said} of the {of_the_pot(state, chips - carried)} to pay {are} "
                f"paid{raked} (the pot's {as_typed(state, chips)}{less})")
    back = ", ".join(f"{p}'s uncalled bet of {as_typed(state, c)}" for p, c in returned.items())
    pots = as_typed(state, chips - sum(returned.values()))
    return (f"cannot end: {said} of the {of_the_pot(state, chips - carried)} to pay {are} "
            f"paid{raked} (the pot's {pots}{less}, and {back} to return, RULES.md §1.4)")


def payout_faults(state: HandState, short_before: int = 0,
                  events: Sequence[Any] | None = None
                  ) -> dict[tuple[str, str], tuple[int, str]]:
    """Each rule above that the payouts of ``state`` (a hand folded whole, corrections
    applied) break, as ``{(rule, player): (chips, words)}``: ``("folded", P)`` chips paid to
    P, who folded; ``("returned", P)`` chips marked returned to P beyond his uncalled bet
    (:func:`within_uncalled_bet`); ``("reach", P)`` chips paid to P beyond what he can win;
    ``("pots", "")`` chips the rake (if any) and the payouts take beyond the pots (an uncalled
    bet raked or paid to another player, :func:`rake_within_the_pots`); ``("raked_pay",
    "")``, given ``events`` (the hand's effective events in order, which fold to ``state``),
    chips a plain payout recorded after the rake takes of an uncalled bet as pot chips
    (:func:`raked_pay_fault`); ``("carried", "")``
    chips the payouts and the rake take of those the pot carries to the next hand
    (:func:`not_carried`, RULES.md §2.2, §3.8, §7.1); ``("short", "")``
    chips of a complete hand's pot paid to nobody (only for a hand that ``complete``s). The
    words are the refusal the live action gets (``short_before``: see :func:`_unpaid`). A
    zero payout breaks nothing."""
    from engine.settle import settle
    from replay.compare import most_can_win, returned_beyond

    result = settle(state)
    paid = paid_by_player(state.payouts)
    back = returned_beyond(result, state.payouts)
    faults: dict[tuple[str, str], tuple[int, str]] = {}
    for player, chips in paid.items():
        most = most_can_win(result, player)
        if chips and player in state.folded:
            faults[("folded", player)] = (chips, _folded(player))
            continue
        if player in back:
            faults[("returned", player)] = (
                back[player] - result.returned.get(player, 0),
                _beyond_uncalled(state, result, player, back[player]))
        if chips > most:
            faults[("reach", player)] = (chips - most,
                                         _beyond_reach(state, result, player, chips))
    over, words = raked_pay_fault(events) if events else (0, "")
    if over:  # after the folded (as the live pay checks them), before the rest
        faults = {**{k: v for k, v in faults.items() if k[0] == "folded"},
                  ("raked_pay", ""): (over, words), **faults}
    over, words = _raked_beyond(state, hand_rake(state), result)
    if over:
        faults[("pots", "")] = (over, words)
    over, words = _beyond_carried(state, result)
    if over:
        faults[("carried", "")] = (over, words)
    if state.status == "complete":
        short, words = _unpaid(state, result, short_before)
        if short:
            faults[("short", "")] = (short, words)
    return faults


def new_fault(before: HandState, after: HandState, before_events: Sequence[Any] = (),
              after_events: Sequence[Any] = ()) -> str | None:
    """The words of the first rule of :func:`payout_faults` that the hand ``after`` (a
    correction applied to ``before``) breaks by more chips than ``before`` did, None when
    there is none; ``before_events``, ``after_events``: the effective events each folds
    from, in order, for the rule that weighs a payout by its place after the rake
    (:func:`raked_pay_fault`; not checked without them). A fault the hand had already (an
    imported hand a site paid short, an uncalled bet left out, or paid as its file says; a
    file's rake is no fault, but held as a live one, :func:`hand_rake`) is kept as it was,
    never held against a correction; one the correction makes or makes worse is."""
    was = payout_faults(before, events=before_events)
    short = was.get(("short", ""), (0, ""))[0]
    for key, (chips, words) in payout_faults(after, short, after_events).items():
        if chips > was.get(key, (0, ""))[0]:
            return words
    return None
