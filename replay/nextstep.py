"""What a hand recorded live waits for when nobody is to bet: the next card to deal, draw,
declaration or showdown step, in the PHH notation ``act`` takes (FORMATS.md §1; dealing
RULES.md §4, declaring §3.2–3.4).

``next_step(state)`` reads the engine's state and never changes it; ``replay.live`` prints it
after each action and in ``state``, and a refused action quotes it (``now: …``).
"""

from __future__ import annotations

from engine.dealing import next_to_draw
from engine.deck import seventh_street
from engine.notation import format_amount
from engine.state import HandState


def _names(players: list[str]) -> str:
    return ", ".join(players)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _deal(state: HandState) -> str | None:
    index = 0 if state.phase == "forced" else state.street  # forced: street 0 comes next
    street = state.game.streets[index]
    cards = state.cards
    if street.hole_up and not (state.game.stud and cards.boards[0]):
        # seventh street when the deck runs out: the rule the engine checks (RULES.md §4.1)
        seventh = seventh_street(state) if state.game.stud else None
        first = "next: "
        if seventh is not None and seventh.deal != "own":
            first = (f"next: d db CARD (the community card, every player's seventh: "
                     f"the stub cannot give the {seventh.owed} players still in a card each, "
                     "RULES.md §4.1)")
            if seventh.deal == "community":  # not even a reshuffle gives each his own
                return first
            first += "; or, reshuffling the burned and folded cards, "
        live = state.live()
        waiting = [p for p in state.order if p in live and p not in cards.street_hole]
        if waiting:
            then = f"; then {_names(waiting[1:])}" if len(waiting) > 1 else ""
            return (f"{first}d dh {waiting[0]} CARDS ({_cards(len(street.hole_up))}, ?? for "
                    f"each unseen card){then}")
    need = state.game.board_by_street[index]
    for run, board in enumerate(cards.boards, start=1):
        if len(board) < need:
            of_run = f", run {run}" if len(cards.boards) > 1 else ""
            return f"next: d db CARDS ({_cards(need - len(board))}{of_run})"
    return None


def _draw(state: HandState) -> str | None:
    owed = state.cards.owed
    if owed:
        player, n = next(iter(owed.items()))
        return f"next: d dh {player} CARDS ({_cards(n)} drawn)"
    player = next_to_draw(state)
    if player is None:
        return None
    return f"{player} to act: {player} sd CARDS (discard) or {player} sd (stand pat)"


def _declare(state: HandState) -> str:
    """Who declares next and what he may type: a declaration or giving up his hand instead
    (``f``, RULES.md §3.2-3.4; :func:`engine.declare.order.concede`)."""
    if state.declare_method == "in_turn":
        queue = state.declare_queue()
        if queue:
            return f"{queue[0]} to act: {queue[0]} dcl high|low|swing or {queue[0]} f (give up)"
    live = state.live()
    waiting = [p for p in state.order if p in live and p not in state.declarations]
    return ("next: PLAYER dcl high|low|swing or PLAYER f (give up) (still to declare: "
            f"{_names(waiting)})")


def _to_show(state: HandState) -> bool:
    """Whether a player may still show or muck at the showdown: two players or more still
    in (one alone need not show, RULES.md §1.5) and one of them who has not shown, or has
    shown with a card unseen (``??``, which a later show may name: a shown hand stays
    shown, :mod:`replay.show_rules`)."""
    live = state.live()
    if len(live) <= 1:
        return False
    shown, hole = state.cards.shown, state.cards.hole
    return any(p not in shown or "??" in hole[p] for p in live)


def _after_payouts(state: HandState) -> str:
    """The showdown's next step once a payout is recorded: more payouts or ``end``; first
    ``returned PLAYER AMOUNT`` of each uncalled bet ``end`` would refuse to leave to nobody
    (RULES.md §1.4: :func:`replay.payout_rules.returns_due`), then ``end`` alone when nothing
    else is left unpaid: ``"next: returned Ann 50 (the uncalled bet, in no pot: RULES.md
    §1.4), then end"``."""
    from engine.settle import settle
    from replay.payout_rules import returns_due
    from replay.typed import as_typed

    result = settle(state)
    back, rest = returns_due(state, result)
    if not back:
        return "next: pay PLAYER AMOUNT or end"
    words = ", ".join(f"returned {p} {as_typed(state, c)}" for p, c in back)
    why = "the uncalled bet" if len(back) == 1 else "the uncalled bets"
    then = "pay PLAYER AMOUNT, then end" if rest else "then end"
    return f"next: {words} ({why}, in no pot: RULES.md §1.4), {then}"


def next_step(state: HandState) -> str:
    """``"phase deal, next: d db CARDS (3 cards)"``: the phase and what it waits
    for (a deal, a discard, a declaration, the showdown); the phase alone when the engine
    names nothing (a hand that is over).
    """
    phase = state.phase
    step: str | None = None
    if phase in ("forced", "deal"):
        step = _deal(state)
    elif phase == "draw":
        step = _draw(state)
    elif phase == "declare":
        step = _declare(state)
    elif phase == "showdown" and state.status == "open":
        if state.payouts:
            step = _after_payouts(state)
        elif state.rake and state.rake == state.pot_total():  # nothing left to pay
            raked = format_amount(state.rake, state.started.unit.decimals)
            step = f"next: end (the rake of {raked} took the pot)"
        elif state.rake:  # a raked hand records its payouts: the pot less the rake
            pay = (f"pay PLAYER AMOUNT (the pot less the rake of "
                   f"{format_amount(state.rake, state.started.unit.decimals)}), then end")
            step = f"next: {pay}" if not _to_show(state) else (
                f"next: PLAYER sm CARDS (show) or PLAYER sm (muck), {pay}")
        elif not _to_show(state):  # won without a showdown, or every hand shown: none to show
            step = "next: pay PLAYER AMOUNT, end"
        else:
            step = "next: PLAYER sm CARDS (show) or PLAYER sm (muck), pay PLAYER AMOUNT, end"
    return f"phase {state.phase_said}" + (f", {step}" if step else "")
